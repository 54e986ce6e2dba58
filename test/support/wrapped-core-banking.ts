import type { CoreBanking } from '../../src/bank/core-banking.port.js';
import type { SandboxCoreBanking } from '../../src/modules/sandbox/sandbox-core-banking.js';

/** For some of the port's operations, a stand-in made from the sandbox's own (bound to it). */
export type CoreBankingWrappers = { readonly [K in keyof CoreBanking]?: (original: CoreBanking[K]) => CoreBanking[K] };

/**
 * The sandbox's core-banking port with the operations named in `wrappers` replaced by what each
 * makes of the original: a bank that counts, slows down, forgets an account or lets something
 * happen between two questions, for `useTestServer({ coreBanking })`. Every other operation is the
 * sandbox's own.
 */
export function wrappedCoreBanking(sandbox: SandboxCoreBanking, wrappers: CoreBankingWrappers): SandboxCoreBanking {
  const made = new Map<PropertyKey, unknown>();
  return new Proxy(sandbox, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      const wrap = (wrappers as Record<PropertyKey, ((original: unknown) => unknown) | undefined>)[property];
      if (wrap === undefined || typeof value !== 'function') return value;
      if (!made.has(property)) made.set(property, wrap((value as (...args: unknown[]) => unknown).bind(target)));
      return made.get(property);
    },
  });
}
