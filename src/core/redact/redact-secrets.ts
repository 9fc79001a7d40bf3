import { secretForms } from "./secret-forms.js";

/** What replaces a secret in any text Bosun writes. */
export const REDACTED = "***";

// Token shapes worth masking even when nobody told us the value: GitHub, OpenAI/Anthropic, Slack, bearer headers.
const TOKEN_SHAPES: readonly RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,255}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,255}\b/g,
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}\b/g,
  /\bxox[abpors]-[A-Za-z0-9-]{10,}\b/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\b(Bearer|token)\s+[A-Za-z0-9._~+/-]{16,}=*/gi,
];

/** Values shorter than this are not masked: masking "a" or "1" would shred the text and hide nothing. */
const MIN_SECRET_LENGTH = 4;

/**
 * Masks every given secret value — raw, base64 (also of `x-access-token:<value>`), percent-encoded
 * and JSON-escaped (see `secretForms`) — and every common token shape in `text`.
 * @example redactSecrets("token=hunter22", ["hunter22"]) === "token=***"
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret containing another (or a padded form containing the unpadded one) is masked whole.
  const given = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  const values = [...new Set(given.flatMap(secretForms))].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  for (const value of values) out = out.split(value).join(REDACTED);
  for (const shape of TOKEN_SHAPES) {
    out = out.replace(shape, (match, scheme: unknown) => (typeof scheme === "string" && match.startsWith(scheme) ? `${scheme} ${REDACTED}` : REDACTED));
  }
  return out;
}

/**
 * Masks secrets in every string inside `value` (objects and arrays walked, keys and other values
 * kept), so a value is safe BEFORE it is serialized: masking serialized text misses a secret whose
 * characters the serializer escaped.
 * @example redactValues({ tail: "x hunter22" }, ["hunter22"]) // { tail: "x ***" }
 */
export function redactValues<T>(value: T, secrets: readonly string[] = []): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactSecrets(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
