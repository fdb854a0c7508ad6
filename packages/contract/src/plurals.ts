const rules = new Intl.PluralRules('en-US');

/** The word for a count, by the language's plural rules: plural(1, 'order', 'orders') → 'order'; 0 or 2 → 'orders'. */
export function plural(count: number, one: string, other: string): string {
  return rules.select(count) === 'one' ? one : other;
}

/** A count and its word: counted(3, 'IP', 'IPs') → '3 IPs'. */
export const counted = (count: number, one: string, other: string) => `${count} ${plural(count, one, other)}`;
