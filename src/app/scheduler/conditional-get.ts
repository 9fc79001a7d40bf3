import { statusOf } from "../../adapters/github/status-of.js";

/** A GET sent with If-None-Match; on 304 it answers the data of the last 200. */
export type ConditionalGet = <T>(key: string, fetchPage: (headers: Record<string, string>) => Promise<{ data: T; headers: { etag?: string } }>) => Promise<T>;

/**
 * Conditional GETs sharing one ETag cache: a read that finds nothing changed costs a 304, which
 * does not count against the rate limit.
 */
export function conditionalGet(): ConditionalGet {
  const etags = new Map<string, { etag: string; data: unknown }>();
  return async function conditional<T>(key: string, fetchPage: (headers: Record<string, string>) => Promise<{ data: T; headers: { etag?: string } }>): Promise<T> {
    const cached = etags.get(key);
    try {
      const response = await fetchPage(cached === undefined ? {} : { "if-none-match": cached.etag });
      if (response.headers.etag !== undefined) etags.set(key, { etag: response.headers.etag, data: response.data });
      return response.data;
    } catch (err) {
      if (statusOf(err) === 304 && cached !== undefined) return cached.data as T;
      throw err;
    }
  };
}
