const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Standard base64 (with `=` padding) of `text` as UTF-8; written here because the core has no Buffer. */
export function base64Of(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | (b << 8) | c;
    out += ALPHABET.charAt((n >> 18) & 63) + ALPHABET.charAt((n >> 12) & 63);
    out += i + 1 < bytes.length ? ALPHABET.charAt((n >> 6) & 63) : "=";
    out += i + 2 < bytes.length ? ALPHABET.charAt(n & 63) : "=";
  }
  return out;
}

/**
 * The forms a secret is written in by the tools around Bosun, longest first: raw; base64 of it and
 * of `x-access-token:<it>` (what actions/checkout stores as an `AUTHORIZATION: basic` header in the
 * git config), padded, unpadded and base64url; percent-encoded (credentials in URLs, `+` for spaces
 * in forms); and JSON-escaped (a secret holding `"` or `\` inside serialized text).
 */
export function secretForms(secret: string): string[] {
  const encoded = [secret, `x-access-token:${secret}`].map(base64Of).flatMap((b) => {
    const unpadded = b.replace(/=+$/, "");
    return [b, unpadded, unpadded.replace(/\+/g, "-").replace(/\//g, "_")];
  });
  const percent = encodeURIComponent(secret);
  const forms = [secret, ...encoded, percent, percent.replace(/%20/g, "+"), JSON.stringify(secret).slice(1, -1)];
  return [...new Set(forms)];
}
