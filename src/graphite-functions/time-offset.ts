/**
 * graphite-web's parseTimeOffset (render/attime.py) for the interval arguments of movingAverage and summarize:
 * `[+-]` then runs of digits and a unit (`s`, `min`, `h`, `d`, `w`, `mon` = 30 days, `y` = 365 days), summed.
 * Returns the seconds as graphite-web's timedelta gives them (`delta.seconds + delta.days * 86400`), or null where
 * graphite-web would raise (the function then fails there, and the target is not evaluated here).
 */
export function parseTimeOffset(offset: string): number | null {
  if (offset === '') return 0;
  let sign = 1;
  let rest = offset;
  if (!/^[0-9]/.test(rest)) {
    if (rest[0] === '+') sign = 1;
    else if (rest[0] === '-') sign = -1;
    else return null;
    rest = rest.slice(1);
  }
  let total = 0;
  while (rest !== '') {
    const digits = /^[0-9]*/.exec(rest)![0];
    // int('') raises in Python.
    if (digits === '') return null;
    rest = rest.slice(digits.length);
    const unit = /^[A-Za-z]*/.exec(rest)![0];
    rest = rest.slice(unit.length);
    const seconds = unitSeconds(unit);
    if (seconds === null) return null;
    total += sign * Number(digits) * seconds;
  }
  return total;
}

function unitSeconds(unit: string): number | null {
  if (unit.startsWith('s')) return 1;
  if (unit.startsWith('min')) return 60;
  if (unit.startsWith('h')) return 3600;
  if (unit.startsWith('d')) return 86_400;
  if (unit.startsWith('w')) return 604_800;
  if (unit.startsWith('mon')) return 30 * 86_400;
  if (unit.startsWith('y')) return 365 * 86_400;
  return null;
}
