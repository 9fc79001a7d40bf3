/**
 * A task's class for the gate rejection rate: the namespace of its claim key (`bugfix:login-crash`
 * is `bugfix`; the default key `task:<id>` is `task`). The namespace is what a team already uses to
 * say what kind of work an item is (the similarity guard reads it the same way), and it travels
 * with the frozen brief, so every face that gates an item names the same class.
 * @example taskClassOf({ claim_key: "bugfix:login-crash" }) === "bugfix"
 */
export function taskClassOf(brief: { readonly claim_key: string }): string {
  const colon = brief.claim_key.indexOf(":");
  return colon <= 0 ? brief.claim_key : brief.claim_key.slice(0, colon);
}
