/**
 * One spelling per account: lower case, without the `[bot]` suffix, so REST's `name[bot]`,
 * GraphQL's `name` and a differently-cased config entry all compare equal.
 */
export function normalizeLogin(login: string): string {
  return login.trim().toLowerCase().replace(/\[bot\]$/, "");
}

/** The login inside a GitHub noreply address (`123+mona@users.noreply.github.com`, `mona@users…`), if any. */
export function loginFromEmail(email: string): string | undefined {
  const match = /^(?:\d+\+)?([^@+]+)@users\.noreply\.github\.com$/i.exec(email.trim());
  return match?.[1] === undefined ? undefined : normalizeLogin(match[1]);
}

/** `Co-authored-by: Name <email>` trailers of a commit message. */
export function coAuthors(message: string): { name: string; email: string }[] {
  const out: { name: string; email: string }[] = [];
  for (const match of message.matchAll(/^[ \t]*co-authored-by:[ \t]*(.*?)[ \t]*<([^>\s]+)>[ \t]*$/gim)) out.push({ name: (match[1] ?? "").trim(), email: (match[2] ?? "").trim() });
  return out;
}

/** Every identity string of a person in a commit: login, email, and the login a noreply email names. */
export function identityKeys(person: { login?: string | null; email?: string | null; name?: string | null }): string[] {
  const keys: string[] = [];
  if (person.login) keys.push(normalizeLogin(person.login));
  if (person.email) {
    keys.push(person.email.trim().toLowerCase());
    const fromEmail = loginFromEmail(person.email);
    if (fromEmail !== undefined) keys.push(fromEmail);
  }
  // A name equal to a login is treated as that login: excluding one approver too many is the safe error.
  if (person.name) keys.push(normalizeLogin(person.name));
  return keys;
}

/**
 * Agents every repository has without configuration (normalized): Copilot's coding-agent accounts,
 * and the address Claude Code signs its `Co-authored-by` trailers with. Any `…[bot]` identity is an
 * agent too (isBotIdentity).
 */
export const DEFAULT_AGENTS: readonly string[] = ["copilot", "copilot-swe-agent", "noreply@anthropic.com"];

/** Whether an identity string (login, email or name) names a bot: `x[bot]`, or a bot's noreply address. */
export function isBotIdentity(value: string | null | undefined): boolean {
  if (value === null || value === undefined) return false;
  const v = value.trim().toLowerCase();
  return v.endsWith("[bot]") || /^(?:\d+\+)?[^@+]+\[bot\]@users\.noreply\.github\.com$/.test(v);
}
