import type { FastifyInstance } from 'fastify';
import type { AppModule } from '../../app-module.js';
import type { Db } from '../../db/create-db.js';
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
  // Opened once, by whichever asks first (the job as the server gets ready, or the route).
  let opening: Promise<BankSeal> | undefined;
  const seal = () => (opening ??= openBankSeal(options.seal));
  return {
    name: 'notifications',
    jobs: (app) => installNotificationDelivery(app, options, seal),
    rootRoutes: async (app) => app.register(notificationSealRoutes, { seal }),
  };
}

function installNotificationDelivery(app: FastifyInstance, options: NotificationsModuleOptions, openSeal: () => Promise<BankSeal>): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let delivery: NotificationDelivery | undefined;
  app.addHook('onReady', async () => {
    const seal = await openSeal();
    delivery = createNotificationDelivery(options.db, options.now, () => seal, options.delivery, app.log);
    timer = setInterval(() => {
      if (running || !delivery) return;
      running = delivery
        .deliverDue()
        .catch((error: unknown) => app.log.error({ err: error }, 'status notification delivery failed'))
        .finally(() => {
          running = undefined;
        });
    }, options.pollMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    // A pass under way finishes first: its rows' outcomes are written before the database closes.
    await running;
  });
}
