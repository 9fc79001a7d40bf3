import type { Probe, ProbeFailureCode, ProbeOutcome } from "../../core/verify/probe-outcome.js";
import { readVersion } from "../../core/verify/read-version.js";
import type { VersionSource } from "../../core/verify/read-version.js";
import { redactUrl } from "../../core/verify/redact-url.js";

/** How to probe a URL; `fetch` is injected so tests and proxies can pass their own. */
export interface HttpProbeOptions {
  readonly url: string;
  readonly source: VersionSource;
  readonly fetch?: typeof globalThis.fetch;
  /** Extra request headers (e.g. authorization): sent, never reported. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Origins (`https://cdn.example.com`) a redirect may lead to besides the URL's own. By default a
   * redirect is followed only to the same scheme, host and port: a target must not be able to send
   * the probe, with its authorization and custom headers, somewhere else or down to plain http.
   * Headers and credentials are never forwarded to another origin, even an allowed one.
   */
  readonly allowRedirectTo?: readonly string[];
}

/**
 * The most of a response body a probe reads, counted after decoding (gzip, br): a version is a
 * short field; a 1 GB body once took 2.2 GB of memory, and a gzip bomb inflates without end.
 */
export const MAX_PROBE_BODY_BYTES = 1024 * 1024;

/** The body as text, or undefined (and the rest left unread) past `most` bytes. */
async function readBoundedBody(res: Response, most: number): Promise<string | undefined> {
  if (res.body === null) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > most) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Hops a probe follows before it calls the target unreachable. */
export const MAX_REDIRECTS = 5;

/**
 * A probe that GETs `url` and reads the version from the response. Every failure — refused, DNS,
 * TLS, timeout, non-2xx, unreadable body — becomes an outcome, never a throw.
 */
export function createHttpProbe(options: HttpProbeOptions): Probe {
  const doFetch = options.fetch ?? globalThis.fetch;
  const { url, authorization } = splitCredentials(options.url);
  const origin = URL.canParse(url) ? new URL(url).origin : undefined;
  const allowed = new Set((options.allowRedirectTo ?? []).filter((o) => URL.canParse(o)).map((o) => new URL(o).origin));
  return async (timeoutMs) => {
    try {
      // The signal also bounds reading the body: a server that sends headers then stalls still times out.
      const signal = AbortSignal.timeout(Math.max(1, Math.round(timeoutMs)));
      let at = url;
      let res: Response | undefined;
      // Redirects are followed by hand ("manual"), so each hop's origin is checked before it is asked.
      for (let hop = 0; ; hop++) {
        const sameOrigin = URL.canParse(at) && new URL(at).origin === origin;
        res = await doFetch(at, {
          method: "GET",
          redirect: "manual",
          signal,
          headers: {
            // A cached answer would report the version a cache saw, not the one the target runs.
            "cache-control": "no-cache",
            "user-agent": "bosun-verify",
            ...(sameOrigin && authorization !== undefined ? { authorization } : {}),
            ...(sameOrigin ? options.headers : {}),
          },
        });
        const location = res.status >= 300 && res.status <= 399 ? res.headers.get("location") : null;
        if (location === null) break;
        await res.body?.cancel();
        if (hop >= MAX_REDIRECTS) return failure("http-status", `more than ${MAX_REDIRECTS} redirects (last to ${redactUrl(location)})`);
        const next = URL.canParse(location, at) ? new URL(location, at) : undefined;
        if (next === undefined) return failure("http-status", `HTTP ${res.status} redirects to an unreadable location`);
        if (next.origin !== origin && !allowed.has(next.origin)) {
          return failure(
            "http-status",
            `HTTP ${res.status} redirects to ${next.origin}, another origin than ${origin ?? url}: not followed (a redirect stays on the same scheme, host and port unless that origin is allowed)`,
          );
        }
        at = next.toString();
      }
      const status = `HTTP ${res.status}`;
      const body = await readBoundedBody(res, MAX_PROBE_BODY_BYTES);
      if (body === undefined) return failure("body-too-large", `${status} with a body of more than ${MAX_PROBE_BODY_BYTES} bytes${res.headers.get("content-encoding") === null ? "" : " (decoded)"}: not read further (a version is a short field)`);
      if (res.status < 200 || res.status > 299) {
        return failure("http-status", `${status}${res.statusText === "" ? "" : ` ${res.statusText}`}`);
      }
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name] = value;
      });
      return readVersion(options.source, body, headers, status);
    } catch (err) {
      return classifyFetchError(err, timeoutMs);
    }
  };
}

/** Maps what undici throws (a TypeError whose `cause` has a Node error code) to a failure code. */
export function classifyFetchError(err: unknown, timeoutMs: number): ProbeOutcome {
  const name = err instanceof Error ? err.name : "";
  if (name === "TimeoutError" || name === "AbortError") {
    return failure("timeout", `no answer within ${Math.round(timeoutMs)} ms`);
  }
  const code = errorCode(err);
  const message = causeMessage(err);
  if (code === "ECONNREFUSED") return failure("refused", "connection refused");
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NODATA") return failure("dns", `DNS lookup failed (${code})`);
  if (code === "UND_ERR_CONNECT_TIMEOUT" || code === "ETIMEDOUT") return failure("timeout", `connect timed out (${code})`);
  if (code !== undefined && /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code)) {
    return failure("tls", `TLS failed (${code})`);
  }
  if (code !== undefined) return failure("network", `${code}${message === "" ? "" : `: ${message}`}`);
  return failure("network", message === "" ? "request failed" : message);
}

/** fetch refuses URLs with credentials: move `user:pass@` into a Basic authorization header. */
function splitCredentials(raw: string): { url: string; authorization: string | undefined } {
  if (!URL.canParse(raw)) return { url: raw, authorization: undefined };
  const parsed = new URL(raw);
  if (parsed.username === "" && parsed.password === "") return { url: raw, authorization: undefined };
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  parsed.username = "";
  parsed.password = "";
  return { url: parsed.toString(), authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}` };
}

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e !== null && typeof e === "object" && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    // Happy-eyeballs connects fail with an AggregateError holding one error per address.
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.length > 0) {
      e = inner[0];
      continue;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function causeMessage(err: unknown): string {
  const cause = err instanceof Error ? err.cause : undefined;
  if (cause instanceof Error && cause.message !== "") return cause.message;
  return err instanceof Error ? err.message : String(err);
}

function failure(code: ProbeFailureCode, reason: string): ProbeOutcome {
  return { kind: "unreachable", code, reason };
}
