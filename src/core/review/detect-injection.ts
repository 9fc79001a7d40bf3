/** A line of the diff that speaks to the reviewer instead of being code. */
export interface InjectionHit {
  readonly path: string;
  readonly line?: number;
  readonly text: string;
}

// Phrases addressed to a model reviewing the change. Not a defence on its own (the verdict never
// comes from free text); it makes an attempt visible and keeps a blocking review from passing it.
const ADDRESSED_TO_REVIEWER = [
  /\b(ignore|disregard|forget|override)\b[^\n]{0,40}\b(previous|prior|above|earlier|your|all|any|the)\b[^\n]{0,20}\b(instructions?|rules?|prompt|guidelines|constraints?)\b/i,
  /\b(you are|as) (an? |the )?(ai|llm|language model|assistant|reviewer)\b/i,
  /\b(approve|pass|accept) (this|the) (change|pr|pull request|diff|review)\b/i,
  /\b(mark|answer|report) (every|all|each) (item|constraint|non-goal)s? (as )?"?satisfied/i,
  /<\/?\s*(system|untrusted_diff|instructions?)\b/i,
];

/** Added lines of the patches that look like instructions to the reviewer, with file and new-file line. */
export function detectInjection(files: readonly { readonly path: string; readonly patch?: string }[]): InjectionHit[] {
  const hits: InjectionHit[] = [];
  for (const file of files) {
    if (file.patch === undefined) continue;
    let line = 0;
    for (const text of file.patch.split("\n")) {
      const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)/.exec(text);
      if (hunk !== null) {
        line = Number(hunk[1]) - 1;
        continue;
      }
      if (text.startsWith("-")) continue;
      line++;
      if (text.startsWith("+") && ADDRESSED_TO_REVIEWER.some((re) => re.test(text))) hits.push({ path: file.path, line, text: text.slice(1, 201).trim() });
    }
  }
  return hits;
}
