import { UniqueViolation } from '../store.js';

/** A list as one JSON parameter, for `IN (SELECT value FROM json_each(?))`: one statement text whatever its length. */
export const json = (values: readonly (string | number)[]): string => JSON.stringify(values);

/** Runs a write, turning a per-account UNIQUE violation into UniqueViolation(field, value). */
export function unique<T>(field: string, value: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (error instanceof Error && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw new UniqueViolation(field, value);
    }
    throw error;
  }
}
