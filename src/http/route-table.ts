import type { FastifyInstance, HTTPMethods } from 'fastify';

/**
 * The routes the app serves, kept to tell "no such path" (404) from "not with this method" (405)
 * when Fastify finds no route for a request, and to list in every 405's Allow header the methods
 * its path does serve (a route that refuses its own method, a payment's DELETE, answers 405 too).
 */
export class RouteTable {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];
  private readonly byUrl = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  track(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods: readonly HTTPMethods[] = Array.isArray(route.method) ? route.method : [route.method];
      let entry = this.byUrl.get(route.url);
      if (!entry) {
        entry = { pattern: toPattern(route.url), methods: new Set() };
        this.byUrl.set(route.url, entry);
        this.routes.push(entry);
      }
      for (const method of methods) {
        entry.methods.add(method.toUpperCase());
      }
    });
  }

  /** The methods allowed at a concrete path; empty when no route matches it. */
  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) {
      if (route.pattern.test(path)) {
        route.methods.forEach((method) => methods.add(method));
      }
    }
    return [...methods].sort();
  }
}

function toPattern(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  // Like Fastify's router (ignoreTrailingSlash is on): `/x/` is `/x`, and `/x//` is neither.
  return new RegExp(`^${escaped.replace(/\/$/, '')}/?$`);
}
