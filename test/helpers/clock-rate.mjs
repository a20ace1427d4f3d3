// Preloaded into a server process by a test (node --import) to run its wall clock ALERTFORM_TEST_CLOCK_RATE times
// faster from ALERTFORM_TEST_CLOCK_EPOCH_MS on: Date.now() and new Date() are epoch + (real - epoch) * rate, so that
// processes started one after another with the same epoch share one fast clock (a restart does not turn it back).
// Escalation steps minutes apart then fire seconds apart. Timers and performance.now are left alone (evaluation
// intervals and lease TTLs stay real). Only tests load this file.
const rate = Number(process.env.ALERTFORM_TEST_CLOCK_RATE ?? 1);
const epoch = Number(process.env.ALERTFORM_TEST_CLOCK_EPOCH_MS ?? 0);
if (rate !== 1 && epoch > 0) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  const fastNow = () => Math.floor(epoch + (realNow() - epoch) * rate);
  class FastDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(fastNow());
      else super(...args);
    }
    static now() {
      return fastNow();
    }
  }
  globalThis.Date = FastDate;
}
