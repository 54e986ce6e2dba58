import { setImmediate as nextTurn } from 'node:timers/promises';

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every route validator and serializer not compiled yet; rejects with those that do not compile. */
    compileRouteSchemas(): Promise<void>;
  }
}

/**
 * Schema compilation moved out of the start (docs/design.md §9: cold start under 1.5 s). Compiling
 * every route's validators and response serializers before listening took about a third of the
 * start. Each one is compiled instead the first time a request needs it, or by {@link warmUp} once
 * the server listens, one per turn of the event loop, whichever comes first; a request that
 * arrives meanwhile waits no more than that one compile.
 */
export class DeferredCompiles {
  private readonly pending = new Set<() => unknown>();

  /** `compile`'s result, compiled once, when first asked for (or by warm-up). */
  defer<T>(compile: () => T): () => T {
    let compiled: { readonly value: T } | undefined;
    const get = (): T => {
      if (compiled === undefined) {
        this.pending.delete(get);
        compiled = { value: compile() };
      }
      return compiled.value;
    };
    this.pending.add(get);
    return get;
  }

  /** How many are still to compile. */
  get remaining(): number {
    return this.pending.size;
  }

  /**
   * Compiles what no request has needed yet, yielding to requests between compiles. A schema that
   * does not compile is reported to `onError` and left to fail where it is used, as it would have.
   */
  async warmUp(onError: (error: unknown) => void): Promise<void> {
    for (const get of [...this.pending]) {
      await nextTurn();
      try {
        get();
      } catch (error) {
        this.pending.delete(get);
        onError(error);
      }
    }
  }
}
