import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import type { DeferredCompiles } from './deferred-compiles.js';

type BuildSerializer = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;

type Serializer = ReturnType<ReturnType<BuildSerializer>>;

/**
 * Response serializers, compiled once per distinct schema rather than once per route and status
 * (every route documents the same error body for nine statuses, and each compile of it by
 * fast-json-stringify costs about a millisecond), and not before the start: when first used or
 * when the server warms up ({@link DeferredCompiles}).
 */
export function sharedSerializers(deferred: DeferredCompiles): BuildSerializer {
  return (externalSchemas, options) => {
    const compile = SerializerSelector()(externalSchemas, options);
    const compiled = new Map<string, Serializer>();
    return (route) => {
      const key = JSON.stringify(route.schema);
      let serializer = compiled.get(key);
      if (!serializer) {
        const compiledSerializer = deferred.defer(() => compile(route));
        serializer = (data) => compiledSerializer()(data);
        compiled.set(key, serializer);
      }
      return serializer;
    };
  };
}
