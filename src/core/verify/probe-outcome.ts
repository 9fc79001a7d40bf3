/** Why a probe could not tell which version the target runs (DESIGN.md: could-not-check). */
export type ProbeFailureCode =
  | "refused"
  | "dns"
  | "tls"
  | "timeout"
  | "network"
  | "http-status"
  | "body-too-large"
  | "not-json"
  | "field-missing"
  | "header-missing"
  | "no-match"
  | "not-a-version"
  | "command-failed";

/** What one probe found: the version the target reported, or why it could not be read. */
export type ProbeOutcome =
  | { readonly kind: "value"; readonly value: string; readonly detail: string }
  | { readonly kind: "unreachable"; readonly code: ProbeFailureCode; readonly reason: string };

/** A probe outcome stamped with when it started (ms since epoch) and how long it took. */
export type ProbeObservation = ProbeOutcome & { readonly at: number; readonly durationMs: number };

/** The port every probe (HTTP, command) implements; `timeoutMs` bounds this one attempt. */
export type Probe = (timeoutMs: number) => Promise<ProbeOutcome>;
