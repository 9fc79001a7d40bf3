import type { Probe, ProbeFailureCode, ProbeOutcome } from "../../core/verify/probe-outcome.js";
import { readVersion } from "../../core/verify/read-version.js";
import type { VersionSource } from "../../core/verify/read-version.js";

/** How to probe a URL; `fetch` is injected so tests and proxies can pass their own. */
export interface HttpProbeOptions {
  readonly url: string;
  readonly source: VersionSource;
  readonly fetch?: typeof globalThis.fetch;
  /** Extra request headers (e.g. authorization): sent, never reported. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A probe that GETs `url` and reads the version from the response. Every failure — refused, DNS,
 * TLS, timeout, non-2xx, unreadable body — becomes an outcome, never a throw.
 */
export function createHttpProbe(options: HttpProbeOptions): Probe {
  const doFetch = options.fetch ?? globalThis.fetch;
  const { url, authorization } = splitCredentials(options.url);
  return async (timeoutMs) => {
    try {
      // The signal also bounds reading the body: a server that sends headers then stalls still times out.
      const res = await doFetch(url, {
        method: "GET",
        redirect: "follow",
        signal: AbortSignal.timeout(Math.max(1, Math.round(timeoutMs))),
        headers: {
          // A cached answer would report the version a cache saw, not the one the target runs.
          "cache-control": "no-cache",
          "user-agent": "bosun-verify",
          ...(authorization === undefined ? {} : { authorization }),
          ...options.headers,
        },
      });
      const body = await res.text();
      const status = `HTTP ${res.status}`;
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
