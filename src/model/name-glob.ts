/**
 * Name globs (`*` any run of characters, `?` one character, everything else literal), compiled once into a matcher
 * whose cost is linear in the name: patterns come from tenants and are tested against thousands of names.
 *
 * A glob is its literal-or-`?` parts between stars: the first must begin the name, the last must end it, and the
 * ones between must occur in order. Taking the leftmost occurrence of each middle part is always right (a later one
 * leaves less room for the rest), so nothing is ever tried twice: each part is searched once, from where the last
 * one ended. Parts without `?` are searched natively (indexOf); a part with `?` by a bit-parallel automaton
 * (shift-and: one state bit per character of the part, 32 to a word), so a name costs at most its length times
 * the part's words, never its length times the pattern's.
 */

/** Tests names against one compiled glob. */
export interface NameMatcher {
  test(name: string): boolean;
}

/** Compiles `pattern`; every pattern compiles (there is nothing malformed in a name glob). */
export function compileNameGlob(pattern: string): NameMatcher {
  const parts = pattern.split('*');
  if (parts.length === 1) {
    const whole = compilePart(pattern);
    return { test: (name) => name.length === whole.length && whole.at(name, 0) };
  }
  const head = compilePart(parts[0]!);
  const tail = compilePart(parts[parts.length - 1]!);
  const middle = parts.slice(1, -1).filter((part) => part.length > 0).map(compilePart);
  const minLength = head.length + tail.length + middle.reduce((sum, part) => sum + part.length, 0);
  return {
    test(name) {
      if (name.length < minLength) return false;
      const end = name.length - tail.length;
      if (!head.at(name, 0) || !tail.at(name, end)) return false;
      let from = head.length;
      for (const part of middle) {
        const found = part.find(name, from, end);
        if (found < 0) return false;
        from = found + part.length;
      }
      return true;
    },
  };
}

/** A literal-or-`?` part of a glob. */
interface Part {
  length: number;
  /** Whether the part matches `name` at `index` (the caller checked that it fits). */
  at(name: string, index: number): boolean;
  /** The leftmost index >= `from` where the part matches and ends by `end`, or -1. */
  find(name: string, from: number, end: number): number;
}

function compilePart(text: string): Part {
  const length = text.length;
  if (!text.includes('?')) {
    return {
      length,
      at: (name, index) => name.startsWith(text, index),
      find: (name, from, end) => {
        const found = name.indexOf(text, from);
        return found >= 0 && found + length <= end ? found : -1;
      },
    };
  }
  return { length, at: (name, index) => matchesAt(text, name, index), find: shiftAnd(text) };
}

function matchesAt(text: string, name: string, index: number): boolean {
  for (let i = 0; i < text.length; i += 1) if (text[i] !== '?' && text[i] !== name[index + i]) return false;
  return true;
}

/**
 * The leftmost-occurrence search of a part with `?`: state bit i is set when the part's first i+1 characters match
 * the text just read. One pass over the text, `words` 32-bit operations per character.
 */
function shiftAnd(text: string): Part['find'] {
  const length = text.length;
  const words = Math.ceil(length / 32);
  // The characters a position accepts: `?` positions accept all, the rest one character each.
  const any = new Uint32Array(words);
  for (let i = 0; i < length; i += 1) if (text[i] === '?') any[i >> 5]! |= 1 << (i & 31);
  const masks = new Map<number, Uint32Array>();
  for (let i = 0; i < length; i += 1) {
    if (text[i] === '?') continue;
    const code = text.charCodeAt(i);
    let mask = masks.get(code);
    if (!mask) masks.set(code, (mask = Uint32Array.from(any)));
    mask[i >> 5]! |= 1 << (i & 31);
  }
  const lastWord = (length - 1) >> 5;
  const lastBit = 1 << ((length - 1) & 31);
  const state = new Uint32Array(words);
  return (name, from, end) => {
    state.fill(0);
    for (let t = from; t < end; t += 1) {
      const mask = masks.get(name.charCodeAt(t)) ?? any;
      let carry = 1;
      for (let w = 0; w < words; w += 1) {
        const word = state[w]!;
        state[w] = ((word << 1) | carry) & mask[w]!;
        carry = word >>> 31;
      }
      if ((state[lastWord]! & lastBit) !== 0) return t - length + 1;
    }
    return -1;
  };
}
