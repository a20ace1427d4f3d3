import { UniqueViolation } from '../store.js';

/** Numbered parameters for SQL built piece by piece: param() adds a value and answers its `$n`. */
export class SqlBuilder {
  constructor(readonly params: unknown[] = []) {}
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

/** Runs a write, turning a UNIQUE violation (SQLSTATE 23505) into UniqueViolation(field, value). */
export async function unique<T>(field: string, value: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === '23505') throw new UniqueViolation(field, value);
    throw error;
  }
}
