/** A JSON response body, or why there is none; the reason never echoes the request (it holds the key). */
export type PostResult = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly reason: string };

/** POSTs JSON with a timeout and reads a JSON answer; network errors and non-2xx become reasons. */
export async function postJson(fetchFn: typeof globalThis.fetch, url: string, request: { headers: Record<string, string>; body: unknown; timeoutMs: number }): Promise<PostResult> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...request.headers },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (err) {
    const name = err instanceof Error ? err.name : "";
    return { ok: false, reason: name === "TimeoutError" ? `no answer within ${Math.round(request.timeoutMs / 1000)}s` : `cannot reach ${new URL(url).host}: ${err instanceof Error ? err.message : String(err)}` };
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) return { ok: false, reason: `HTTP ${response.status} from ${new URL(url).host}` };
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: `the response from ${new URL(url).host} is not JSON` };
  }
}
