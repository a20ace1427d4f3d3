// Preloaded into a server process by a test (node --import) to shift its wall clock by
// ALERTFORM_TEST_CLOCK_OFFSET_MS: Date.now() and new Date() jump, as after an NTP step or a wrong hardware clock.
// The monotonic clock (performance.now, timers) is left alone, as the kernel leaves it. Only tests load this file.
const offset = Number(process.env.ALERTFORM_TEST_CLOCK_OFFSET_MS ?? 0);
if (offset !== 0) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  class SkewedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(realNow() + offset);
      else super(...args);
    }
    static now() {
      return realNow() + offset;
    }
  }
  globalThis.Date = SkewedDate;
}
