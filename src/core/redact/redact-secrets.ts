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
 * Masks every given secret value and every common token shape in `text`.
 * @example redactSecrets("token=hunter22", ["hunter22"]) === "token=***"
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret containing another is masked whole.
  const values = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  for (const value of values) out = out.split(value).join(REDACTED);
  for (const shape of TOKEN_SHAPES) {
    out = out.replace(shape, (match, scheme: unknown) => (typeof scheme === "string" && match.startsWith(scheme) ? `${scheme} ${REDACTED}` : REDACTED));
  }
  return out;
}
