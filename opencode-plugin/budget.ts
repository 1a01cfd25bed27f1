// Hooks hold the user's message while they run: work that waits on the engine (opening it,
// a search behind an index pass) races a deadline, and when the deadline wins the message goes
// on without that addition. The work itself is left to finish in the background.

/** The work's result, or null when the deadline passed first (then `onSkip` has been called). */
export async function withinDeadline<T>(work: Promise<T>, deadline: number, onSkip: () => void): Promise<T | null> {
  const late = Symbol("late");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof late>((resolve) => {
    timer = setTimeout(() => resolve(late), Math.max(0, deadline - Date.now()));
  });
  try {
    const winner = await Promise.race([work, timeout]);
    if (winner !== late) return winner as T;
    // Nobody awaits it any more: a later failure must not surface as an unhandled rejection.
    work.catch(() => undefined);
    onSkip();
    return null;
  } finally {
    clearTimeout(timer);
  }
}
