import type { DbOrTx } from '../../db/create-db.js';
import type { CustomerType, SandboxCustomer } from './sandbox-bank.model.js';

const COLUMNS = ['id', 'customer_number', 'customer_type', 'name'] as const;

function toCustomer(row: { id: string; customer_number: string; customer_type: string; name: string }): SandboxCustomer {
  return { id: row.id, customerNumber: row.customer_number, customerType: row.customer_type as CustomerType, name: row.name };
}

/** The owner's columns when another sandbox table is joined with sandbox_customer as `c`. */
export const JOINED_CUSTOMER_COLUMNS = ['c.id as customer_id', 'c.customer_number', 'c.customer_type', 'c.name as customer_name'] as const;

/** The customer of a row selected with {@link JOINED_CUSTOMER_COLUMNS}. */
export function joinedCustomer(row: {
  customer_id: string;
  customer_number: string;
  customer_type: string;
  customer_name: string;
}): SandboxCustomer {
  return toCustomer({
    id: row.customer_id,
    customer_number: row.customer_number,
    customer_type: row.customer_type,
    name: row.customer_name,
  });
}

/** The only place that queries sandbox_customer; every query is scoped to one TPP. */
export const customerRepository = {
  /** Inserts a customer; false when the TPP already has one with this customer number. */
  async insert(db: DbOrTx, tppId: string, customer: SandboxCustomer, at: string): Promise<boolean> {
    const inserted = await db
      .insertInto('sandbox_customer')
      .values({
        id: customer.id,
        tpp_id: tppId,
        customer_number: customer.customerNumber,
        customer_type: customer.customerType,
        name: customer.name,
        created_at: at,
      })
      .onConflict((oc) => oc.columns(['tpp_id', 'customer_number']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  async findById(db: DbOrTx, tppId: string, id: string): Promise<SandboxCustomer | undefined> {
    const row = await db.selectFrom('sandbox_customer').select(COLUMNS).where('tpp_id', '=', tppId).where('id', '=', id).executeTakeFirst();
    return row && toCustomer(row);
  },

  async findByNumber(db: DbOrTx, tppId: string, customerNumber: string): Promise<SandboxCustomer | undefined> {
    const row = await db
      .selectFrom('sandbox_customer')
      .select(COLUMNS)
      .where('tpp_id', '=', tppId)
      .where('customer_number', '=', customerNumber)
      .executeTakeFirst();
    return row && toCustomer(row);
  },

  async list(db: DbOrTx, tppId: string): Promise<SandboxCustomer[]> {
    const rows = await db.selectFrom('sandbox_customer').select(COLUMNS).where('tpp_id', '=', tppId).orderBy('customer_number').execute();
    return rows.map(toCustomer);
  },
};
