export { SENSITIVE } from './placeholder.js';
export { Redactor, redactUrl, secretsInUrl, MIN_SECRET_LENGTH } from './redactor.js';
export { isSensitive, maskValue, maskObject, valuesAtSensitivePaths, type HasSensitivePaths } from './paths.js';
export { KEY_FIELDS, isKeySensitive, displayKey, displayStepId, secretValuesOfChange, redactorForChange, redactorForPlan, secretValuesOfDefinitions } from './plan.js';
