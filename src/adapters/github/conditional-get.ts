import { statusOf } from "./status-of.js";

/** One GET page as Octokit answers it: its data and the ETag to ask with next time. */
export type ConditionalPage<T> = (headers: Record<string, string>) => Promise<{ data: T; headers: { etag?: string } }>;

/** A GET sent with If-None-Match, by key. */
export type ConditionalGet = <T>(key: string, fetchPage: ConditionalPage<T>) => Promise<T>;

/**
 * GETs with `If-None-Match`, remembering each key's last ETag and data: an unchanged answer is a
 * 304, which costs no rate limit, and the data of the last 200 is returned for it.
 */
export function createConditionalGet(): ConditionalGet {
  const etags = new Map<string, { etag: string; data: unknown }>();
  return async function conditional<T>(key: string, fetchPage: ConditionalPage<T>): Promise<T> {
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
