import { redactSecrets } from "../../core/redact/redact-secrets.js";
import { secretForms } from "../../core/redact/secret-forms.js";

// The longest token shape redactSecrets knows by pattern (`github_pat_` and 255 characters).
const LONGEST_SHAPE = 266;
// Past this, held text goes out (all but the held tail) wherever it can be cut: output never piles up here.
const MOST_HELD = 1024 * 1024;
// What a token shape is made of: a cut is never placed inside a run of these.
const TOKEN_CHAR = /[A-Za-z0-9_\-.~+/=]/;

export interface MaskedStream {
  /** Takes the next chunk; returns what is safe to write now (maybe ""), secrets masked. */
  write(chunk: string): string;
  /**
   * The output paused: the held lines that are whole, masked (the display shows whole lines, and
   * a line "Running the tests…" must not wait for the worker's next output to appear). A
   * single-line secret cannot span a line break; a multi-line one written across the pause can.
   */
  flushLines(): string;
  /** The output is over: the rest, masked. */
  end(): string;
}

/**
 * Masks secrets in output that arrives in pieces. Masking each piece on its own missed a secret
 * that a pipe read cut in two (both halves reached the log, and the file joined them again). So
 * the last characters are held back, as many as the longest form of a secret, until more output
 * follows or the output ends; and text goes out cut at a line break, else between tokens, and
 * never inside a given secret.
 */
export function maskedStream(secrets: readonly string[]): MaskedStream {
  const forms = [...new Set(secrets.filter((s) => s.length >= 4).flatMap(secretForms))];
  const hold = Math.max(LONGEST_SHAPE, ...forms.map((s) => s.length));
  let pending = "";
  return {
    write(chunk) {
      pending += chunk;
      if (pending.length <= hold) return "";
      const safe = pending.length - hold;
      let cut = pending.lastIndexOf("\n", safe - 1) + 1;
      if (cut === 0) cut = betweenTokens(pending, safe);
      cut = outsideSecrets(pending, cut, forms);
      if (cut === 0 && pending.length < MOST_HELD) return "";
      // Past the bound, out goes all but the held tail: a secret the run ends with is still whole later.
      if (cut === 0) cut = outsideSecrets(pending, safe, forms) || safe;
      cut = outsidePair(pending, cut);
      if (cut === 0) return "";
      const out = redactSecrets(pending.slice(0, cut), secrets);
      pending = pending.slice(cut);
      return out;
    },
    flushLines() {
      const cut = outsideSecrets(pending, pending.lastIndexOf("\n") + 1, forms);
      const out = redactSecrets(pending.slice(0, cut), secrets);
      pending = pending.slice(cut);
      return out;
    },
    end() {
      const out = redactSecrets(pending, secrets);
      pending = "";
      return out;
    },
  };
}

/**
 * The last place at or before `at` that is not inside a token (nor between `Bearer ` and its
 * token); 0 when the text up to `at` is one token: it is held whole (up to MOST_HELD).
 */
function betweenTokens(text: string, at: number): number {
  let i = at;
  while (i > 0 && TOKEN_CHAR.test(text.charAt(i - 1))) i--;
  if (i === 0) return 0;
  const scheme = /(Bearer|token)\s+$/i.exec(text.slice(Math.max(0, i - 64), i));
  return scheme === null ? i : i - scheme[0].length;
}

/** Moves `cut` back to the start of any form of a secret that spans it. */
function outsideSecrets(text: string, cut: number, forms: readonly string[]): number {
  let at = cut;
  for (let moved = true; moved && at > 0; ) {
    moved = false;
    for (const form of forms) {
      const start = text.lastIndexOf(form, at - 1);
      if (start >= 0 && start + form.length > at) {
        at = start;
        moved = true;
      }
    }
  }
  return at;
}

/**
 * Moves `cut` back off the middle of a surrogate pair (an emoji is two UTF-16 units): each half
 * written alone became U+FFFD, so output.log held "\uFFFD\uFFFD" where the worker wrote one
 * valid character, one in every few hundred KB of emoji-laden output.
 */
function outsidePair(text: string, cut: number): number {
  const before = text.charCodeAt(cut - 1);
  return cut > 0 && cut < text.length && before >= 0xd800 && before <= 0xdbff ? cut - 1 : cut;
}
