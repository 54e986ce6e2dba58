/**
 * What a request that creates a resource brings about: where the resource now lives and what its
 * creator is told about it (its id, status and links). A service returns it from the transaction
 * that creates the resource; the HTTP layer makes it the request's answer, stored in that same
 * transaction so that a retry after a crash gets it (docs/adr/0009-one-idempotency-mechanism-in-the-http-layer.md).
 */
export class CreatedResource<View extends object = object> {
  constructor(
    /** The resource's own address. */
    readonly href: string,
    /** The resource as its creator sees it. */
    readonly view: View,
    /**
     * Further headers of the answer that tell the creator about the resource, lower-case names
     * (ASPSP-Notification-Support and -Content).
     */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}
