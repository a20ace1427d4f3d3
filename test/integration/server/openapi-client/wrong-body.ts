/** Bodies the generated types must reject: the test asserts tsc reports each marked line. */
import type { paths } from './api.js';

type CreateAlert = paths['/v2/alerts/']['post']['requestBody']['content']['application/json'];
type CreateChannel = paths['/v2/notifications/']['post']['requestBody']['content']['application/json'];
type UpdateSchedule = paths['/v2/schedules/{id}/']['put']['requestBody']['content']['application/json'];

export const typo: CreateAlert = { name: 'n', metric: 'm', alert_criteria: { type: 'above', above_vale: 1 } }; // ERROR above_vale
export const noCriteria: CreateAlert = { name: 'n', metric: 'm' }; // ERROR alert_criteria
export const badType: CreateAlert = { name: 'n', metric: 'm', alert_criteria: { type: 'threshold' } }; // ERROR threshold
export const badNotification: CreateAlert = { name: 'n', metric: 'm', alert_criteria: { type: 'missing', time_period: 5 }, notification_type: ['every', 'often'] }; // ERROR notification_type
export const badChannel: CreateChannel = { type: 'fax', description: 'd', destination: 'x' }; // ERROR fax
export const badDay: UpdateSchedule = { repeat: ['someday'] }; // ERROR someday
