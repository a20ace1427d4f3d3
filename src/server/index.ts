export { startServer, type ServerOptions, type RunningServer, type BackgroundService, type ServiceContext } from './start-server.js';
export { createApp, type AppOptions } from './app.js';
export { HttpError, ERROR_CATALOGUE } from './errors.js';
export { SqliteStore, EMAIL_ME } from './store/sqlite/sqlite-store.js';
export * from './store/store.js';
export { activeScheduleEnd, isScheduleActive, timezoneOffsetMinutes, type ScheduleTiming } from '../model/schedule-active.js';
export { muteState } from './present.js';
export { ensureApiKeys } from './accounts.js';
