import type { FastifyInstance } from 'fastify';
import type { AppModule } from '../../app-module.js';
import type { Db } from '../../db/create-db.js';
import { installRepeatingJob } from '../../repeating-job.js';
import { openBankSeal, type BankSeal, type BankSealSource } from './bank-seal.js';
import { notificationSealRoutes } from './notification-seal.routes.js';
import { createNotificationDelivery, type DeliverySettings, type NotificationDelivery } from './notification-delivery.js';

export interface NotificationsModuleOptions {
  readonly db: Db;
  readonly now: () => Date;
  readonly seal: BankSealSource;
  readonly delivery: DeliverySettings;
  /** How often the outbox is looked at. */
  readonly pollMs: number;
}

/**
 * Status notifications: the job that delivers the outbox, and the seal certificate for TPPs to
 * verify them with (`GET /notification-seal-certificate`). Every server process runs it (the rows'
 * leases keep two from sending one notification); the seal is opened as the server gets ready, so
 * a missing or mismatched key stops the start rather than the first send.
 */
export function notificationsModule(options: NotificationsModuleOptions): AppModule {
  // Opened once, as the module is made: a first start generates the seal's RSA key on the thread
  // pool while the rest of the app is built. The job awaits it as the server gets ready (a failure
  // stops the start there), and the route on each request; until then its failure is held.
  const opening = openBankSeal(options.seal);
  opening.catch(() => {});
  const seal = () => opening;
  return {
    name: 'notifications',
    jobs: (app) => installNotificationDelivery(app, options, seal),
    rootRoutes: async (app) => app.register(notificationSealRoutes, { seal }),
  };
}

function installNotificationDelivery(app: FastifyInstance, options: NotificationsModuleOptions, openSeal: () => Promise<BankSeal>): void {
  let delivery: NotificationDelivery | undefined;
  installRepeatingJob(app, {
    name: 'status notification delivery',
    intervalMs: options.pollMs,
    start: async () => {
      const seal = await openSeal();
      delivery = createNotificationDelivery(options.db, options.now, () => seal, options.delivery, app.log);
    },
    // A pass under way when the server closes finishes first: its rows' outcomes are written before the database closes.
    run: () => delivery!.deliverDue(),
  });
}
