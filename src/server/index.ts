export { startServer, type ServerOptions, type RunningServer, type BackgroundService, type ServiceContext } from './start-server.js';
export { createApp, type AppOptions } from './app.js';
export { ApiError, ERROR_CATALOGUE } from './errors.js';
export { SqliteStore } from './store/sqlite/sqlite-store.js';
export * from './store/store.js';
export { activeScheduleEnd, isScheduleActive, type ScheduleTiming } from '../model/schedule-active.js';
export { timezoneOffsetMinutes } from '../model/timezone.js';
export { muteState } from './present.js';
export { ensureApiKeys } from './accounts.js';
