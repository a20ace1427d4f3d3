import { describeAjvErrors, validatorFor, type FieldProblem, type SchemaName } from '../../model/schemas.js';

/** The body's problems against a schema part of schemas/ (e.g. alert#/$defs/create); empty when it conforms. */
export function checkSchema(name: SchemaName, def: string, body: unknown): FieldProblem[] {
  const validate = validatorFor(name, def);
  return validate(body) ? [] : describeAjvErrors(validate.errors);
}
