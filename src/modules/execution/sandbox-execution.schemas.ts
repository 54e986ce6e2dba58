import { Type } from 'typebox';
import { NoBody, SignedRequestHeaders, signedErrorResponses } from '../../http/schemas/common.schemas.js';
import { BATCH_OUTCOMES } from './batch-run-report.js';

const TAGS = ['Sandbox execution'];

export const SandboxClock = Type.Object({
  dateTime: Type.String({ description: "Your sandbox's now (UTC)" }),
  today: Type.String({ description: 'Your bank date, Europe/Oslo' }),
  bankDay: Type.Boolean({ description: 'Whether today is a Norwegian bank day' }),
  offsetSeconds: Type.Integer({ description: 'How far your clock is ahead of the real one' }),
  batchRunsLeftToday: Type.Integer({ minimum: 0, description: 'Scheduled batch runs still to come today by your clock' }),
  nextBatchRun: Type.String({ description: 'The next scheduled batch run by your clock (UTC)' }),
});

export const getClockSchema = {
  operationId: 'getSandboxClock',
  tags: TAGS,
  summary: "Your sandbox's date and time",
  headers: SignedRequestHeaders,
  response: { 200: SandboxClock, ...signedErrorResponses() },
};

export const setClockSchema = {
  operationId: 'setSandboxClock',
  tags: TAGS,
  summary: "Move your sandbox's clock ahead (or back to the real time)",
  description:
    'Give `dateTime` (not before the real time) to move your own "today" ahead: execution dates, approvals (PDNG or ACTC), batch runs and booking dates follow it. `{"reset": true}` goes back to the real time. Other TPPs are not affected; SCA deadlines keep the real clock.',
  headers: SignedRequestHeaders,
  body: Type.Object(
    {
      dateTime: Type.Optional(Type.String({ maxLength: 40, description: 'e.g. 2026-11-23T15:40:00+01:00' })),
      reset: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
  response: { 200: SandboxClock, ...signedErrorResponses() },
};

const Counts = Type.Object(Object.fromEntries(BATCH_OUTCOMES.map((outcome) => [outcome, Type.Integer({ minimum: 0 })])));

export const runBatchSchema = {
  operationId: 'runSandboxBatch',
  tags: TAGS,
  summary: 'Run the batch now over your payments',
  description:
    'Executes every approved payment of yours that is due by your clock (ACTC, PDNG whose date has come, ACCP awaiting funds): debited, credited when the creditor account is in the bank, ACSC; lacking funds ACCP with fundsAvailable false, or RJCT when no scheduled run is left today. Bulk payments execute payment by payment (PART when some fail). Periodic payments are not executed in the sandbox.',
  headers: SignedRequestHeaders,
  body: NoBody,
  response: {
    200: Type.Object({
      batchRunId: Type.String(),
      startedAt: Type.String(),
      finishedAt: Type.String(),
      durationMs: Type.Integer({ minimum: 0 }),
      today: Type.String({ description: 'The bank date it ran for, by your clock' }),
      lastRunOfDay: Type.Boolean({ description: 'Whether payments still lacking funds were rejected' }),
      counts: Counts,
    }),
    ...signedErrorResponses(),
  },
};
