import type { AppModule } from '../../app-module.js';
import { installFrontDoor, type FrontDoorOptions } from '../../http/api-front-door.js';
import type { SandboxCa } from '../../security/certificates/sandbox-ca.js';
import type { SandboxBank } from './sandbox-bank.service.js';
import type { PsuPageLinks } from './psu-page-link.routes.js';
import { sandboxRoutes } from './sandbox.routes.js';
import { tppCertificateRoutes } from './tpp-certificate.routes.js';
import type { TppCertificateDesk } from './tpp-certificate.service.js';

export interface SandboxModuleOptions {
  readonly bank: SandboxBank;
  readonly publicUrl: string;
  /** The PSU's page, which makes the links to it on a TPP's sandbox bank. */
  readonly psuPageLinks: PsuPageLinks;
  /** The certificate desk `POST /sandbox/tpp-certificates` and the CA it issues from; absent: no desk. */
  readonly desk?: { readonly ca: SandboxCa; readonly desk: TppCertificateDesk } | undefined;
  /** The desk's front door: unsigned requests welcome, a signature verified when sent (a key rotation). */
  readonly deskFrontDoor: Omit<FrontDoorOptions, 'signed' | 'verifiesSignatureWhenSent' | 'onTpp'>;
}

/**
 * The sandbox (sandbox mode only, docs/design.md §6): the mock-data API under `/v1/sandbox`, and the
 * certificate desk where a TPP gets a QSealC of the sandbox CA to sign with.
 */
export function sandboxModule(options: SandboxModuleOptions): AppModule {
  const { desk } = options;
  return {
    name: 'sandbox',
    v1Routes: async (v1) =>
      v1.register(sandboxRoutes, {
        prefix: '/sandbox',
        bank: options.bank,
        publicUrl: options.publicUrl,
        psuPageLinks: options.psuPageLinks,
      }),
    ...(desk && {
      rootRoutes: async (app) =>
        app.register(
          async (sandbox) => {
            installFrontDoor(sandbox, {
              ...options.deskFrontDoor,
              signed: false,
              verifiesSignatureWhenSent: true,
              onTpp: async () => undefined,
            });
            await sandbox.register(tppCertificateRoutes, desk);
          },
          { prefix: '/sandbox' },
        ),
    }),
  };
}
