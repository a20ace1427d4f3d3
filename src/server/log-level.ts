import type { Logger } from 'pino';

/**
 * The level of a logger and of every child made from it, changeable while the server runs (a reload). pino copies
 * the level into each child when it is made, so setting the root's level alone would leave the evaluator's and the
 * outbox's loggers where they were: the children are registered as they are made (pino's `onChild`, which children
 * inherit) and set too.
 */
export function trackLogLevel(logger: Logger): (level: string) => void {
  const children = new Set<WeakRef<Logger>>();
  const previous = logger.onChild;
  logger.onChild = (child) => {
    children.add(new WeakRef(child));
    previous?.call(logger, child);
  };
  return (level) => {
    logger.level = level;
    for (const ref of children) {
      const child = ref.deref();
      if (child) child.level = level;
      else children.delete(ref);
    }
  };
}
