// A turn for the event loop: the page's input and rendering, or a worker's next message (a
// newer edit, a cancel), run before the caller goes on.

/**
 * Resolves in a new task. A message rather than a timer: timers are clamped to 4 ms after a few
 * nested calls and throttled in hidden tabs, where a save started on `visibilitychange` still has
 * to finish. A channel per call: Node delivers every message queued on one port in a single
 * turn, so a loop that yields through a shared port would starve its timers and messages.
 */
export function nextTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(() => resolve(), 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
