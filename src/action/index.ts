export { runAction, type RunActionOptions } from './run.js';
export { GITHUB_COMMENT_LIMIT, fitMarkdown, formatMarker, parseMarker, isOurComment, describeWherePlanIs } from './comment.js';
export { composePlanComment, composeInvalidComment, composeErrorComment, renderChangedFiles, planTitle } from './compose.js';
export { listChangedFiles, mapChangesToFiles } from './changed-files.js';
export { createGitHubClient, findPlanComment, upsertPlanComment, findMergedPullRequest, resolveCommentAuthor, ACTIONS_BOT_LOGIN } from './github.js';
export { createReconciler } from './reconciler.js';
export type * from './port.js';
