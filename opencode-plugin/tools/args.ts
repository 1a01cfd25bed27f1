// Argument shapes the tools share. A required text left empty (or only spaces) is answered in
// our words, naming the argument and what to pass, not with the validator's "Too small".
import { z } from "zod";

/** A required string of at most `max` characters; `whenEmpty` is the whole answer to a blank one. */
export function requiredText(max: number, whenEmpty: string) {
  const blank = { message: whenEmpty, abort: true };
  return z.string().min(1, blank).max(max).refine((s) => s.trim() !== "", blank);
}

/** A whole number from `min` to `max`; anything else is answered with that range. */
export function wholeNumber(key: string, min: number, max: number) {
  const range = { message: `${key} must be a whole number from ${min} to ${max}`, abort: true };
  return z.number(range).int(range).min(min, range).max(max, range);
}
