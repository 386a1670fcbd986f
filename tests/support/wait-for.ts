// Waiting for an event the test cannot subscribe to (a notification counted, a process gone, a file
// written from inside a jail), by checking it every 100 ms up to a limit.

/** Whether `condition` held within `ms`. */
export async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 100)))
    if (condition()) return true;
  return condition();
}
