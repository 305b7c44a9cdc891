/**
 * Waits for `work` at most `ms`: past that, answers what `onTimeout` returns, or rejects with what
 * it throws. Whatever `work` does later is ignored, a rejection included (it never becomes an
 * unhandled one). The timer is cleared as soon as `work` settles, so a quick answer leaves nothing
 * pending that would keep a closing process alive.
 */
export function withTimeout<T, U = never>(
  work: PromiseLike<T>,
  ms: number,
  onTimeout: () => U,
): Promise<T | U> {
  return new Promise<T | U>((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
