/** The last line of `text` that parses as a JSON object (or the whole text, for pretty-printed output). */
export function lastJsonObject(text: string): Record<string, unknown> | undefined {
  const whole = parseObject(text.trim());
  if (whole !== undefined) return whole;
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const parsed = parseObject((lines[i] ?? "").trim());
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}

/** Every line of `text` that parses as a JSON object (JSONL event streams), in order. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split("\n").flatMap((line) => {
    const parsed = parseObject(line.trim());
    return parsed === undefined ? [] : [parsed];
  });
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Messages that name a transient provider condition: a retry may succeed where this run did not. */
export function transient(message: string): boolean {
  return /rate.?limit|\b429\b|overloaded|\b529\b|\b50[234]\b|temporarily unavailable|timed? ?out|ECONNRESET/i.test(message);
}

/** Messages that say the model's context or token window was exhausted: out of budget, not a failure. */
export function contextExhausted(message: string): boolean {
  return /context.?window|context_length|maximum context length|too many tokens/i.test(message);
}
