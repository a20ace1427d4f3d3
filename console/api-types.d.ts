// What console/api.js's `api()` takes and answers, derived from the generated console/api-schema.d.ts: a path as
// the OpenAPI document writes it (`/v2/alerts/{id}/muted/`) names its parameters, its body and its answer's JSON.
import type { components, paths } from './api-schema';

/** A response shape of the document by name: `Schema<'AlertOverview'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** A path of the /v2 API as the document writes it. */
export type ApiPath = keyof paths;

/** An HTTP method in lower case, as the document writes it. */
export type Method = 'get' | 'post' | 'put' | 'delete';

/** The methods a path has. */
export type ApiMethod<P extends ApiPath> = { [M in Method]: paths[P][M] extends { responses: unknown } ? M : never }[Method];

type Operation<P extends ApiPath, M extends Method> = paths[P][M];

/** The JSON of an operation's success answer (any 2xx), null when it has none. */
export type ApiAnswer<P extends ApiPath, M extends Method = 'get'> =
  Operation<P, M> extends { responses: infer R }
    ? {
        [S in keyof R]: `${S & number}` extends `2${string}` ? (R[S] extends { content: { 'application/json': infer J } } ? J : null) : never;
      }[keyof R]
    : never;

type Parameters<P extends ApiPath, M extends Method, In extends 'path' | 'query'> =
  Operation<P, M> extends { parameters: { [K in In]?: infer X } } ? NonNullable<X> : never;

/** The `{name}` parts of a path, required whenever the path has any. */
type PathOption<P extends ApiPath, M extends Method> = P extends `${string}{${string}`
  ? { params: { [K in keyof Parameters<P, M, 'path'>]: string } }
  : { params?: never };

/** The query parameters an operation knows (a value per name; a list repeats the name). */
type QueryOption<P extends ApiPath, M extends Method> = {
  query?: { [K in keyof Parameters<P, M, 'query'>]?: string | number | boolean | ReadonlyArray<string | number> };
};

type BodyOption<P extends ApiPath, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? { body?: B } : { body?: never };

/** The options of one call: the method (default get), the path's parameters, the query, the body, another key. */
export type ApiOptions<P extends ApiPath, M extends Method> = { method?: M & ApiMethod<P>; key?: string } & PathOption<P, M> &
  QueryOption<P, M> &
  BodyOption<P, M>;
