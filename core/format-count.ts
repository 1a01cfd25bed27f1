// Counts as people read them: 1200 -> "1,200". Portable.

/**
 * A whole number with commas every three digits, as `toLocaleString("en-US")` writes it, without
 * the locale machinery: its first use loads ICU's data, ~30 ms of every CLI command that prints
 * a count. Anything else (a fraction, NaN) goes to toLocaleString.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += "," + digits.slice(i, i + 3);
  return n < 0 ? "-" + out : out;
}
