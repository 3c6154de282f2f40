// The OpenAPI document's schemas as TypeScript types. Written by openapi/generate.py from openapi/openapi.json: do not edit; change src/contract.rs.

export type PetStatus = "available" | "pending" | "sold";
export type Role = "readonly" | "pos" | "staff" | "admin";
export type Plan = "free" | "pro" | "business" | "enterprise";
export type NewPet = {
  name: string;
  categoryId: number;
  status?: PetStatus | null;
  sku?: string | null;
  barcode?: string | null;
  price?: number | null;
  taxRate?: number | null;
  supplierId?: number | null;
  cost?: number | null;
  reorderQuantity?: number | null;
  animal?: Animal | null;
  hold?: Hold | null;
};
export type Pet = {
  id: number;
  name: string;
  categoryId: number;
  status?: PetStatus;
  sku?: string;
  barcode?: string;
  price?: number;
  taxRate?: number;
  supplierId?: number;
  cost?: number;
  reorderQuantity?: number;
  animal?: Animal;
  hold?: Hold;
};
export type PetPatch = {
  name?: string;
  categoryId?: number;
  status?: PetStatus | null;
  sku?: string | null;
  barcode?: string | null;
  price?: number | null;
  taxRate?: number | null;
  supplierId?: number | null;
  cost?: number | null;
  reorderQuantity?: number | null;
  animal?: Animal | null;
  hold?: Hold | null;
};
export type Pets = Array<Pet>;
export type NewCategory = {
  name: string;
  description?: string | null;
};
export type Category = {
  id: number;
  name: string;
  description?: string;
};
export type CategoryPatch = {
  name?: string;
  description?: string | null;
};
export type Order = {
  id: number;
  petId: number;
  quantity: number;
  shipDate?: string;
  complete: boolean;
  placedAt: string;
  completedAt?: string;
  unitPrice?: number;
  total?: number;
  saleId?: number;
  petName?: string;
};
export type NewOrder = {
  petId: number;
  quantity: number;
  shipDate?: string | null;
};
export type OrderPatch = {
  complete?: boolean;
  shipDate?: string;
};
export type InventoryItem = {
  petId: number;
  quantity: number;
  status: PetStatus;
  reorderPoint?: number;
};
export type InventoryUpdate = {
  quantity: number;
  reason?: string | null;
};
export type StockAdjustment = {
  delta: number;
  reason?: string | null;
};
export type StockChange = {
  id: number;
  petId: number;
  delta: number;
  quantityAfter: number;
  reason: string | null;
  source: "order" | "cancel" | "set" | "adjustment" | "count" | "import" | "refund" | "received";
  orderId: number | null;
  keyName: string | null;
  at: string;
  staffId?: number;
  purchaseOrderId?: number;
};
export type UsageWindow = {
  used: number;
  limit: number;
  remaining: number;
  reset: number;
};
export type Usage = {
  minute: UsageWindow;
  day: UsageWindow;
};
export type ApiKey = {
  id: number;
  name: string;
  role: Role;
  plan: Plan;
  perMinute: number;
  perDay: number;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  bannedUntil: string | null;
  usage: Usage;
};
export type NewApiKey = {
  name: string;
  role: Role;
  plan: Plan;
  perMinute?: number | null;
  perDay?: number | null;
};
export type ApiKeyPatch = {
  name?: string | null;
  role?: Role | null;
  plan?: Plan | null;
  perMinute?: number | null;
  perDay?: number | null;
};
export type CreatedApiKey = {
  id: number;
  name: string;
  role: Role;
  plan: Plan;
  perMinute: number;
  perDay: number;
  prefix: string;
  createdAt: string;
  secret: string;
};
export type Backup = {
  name: string;
  size: number;
  createdAt: string;
};
export type Health = {
  status: "ok";
};
export type Error = {
  code: "bad_request" | "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "request_timeout" | "conflict" | "insufficient_stock" | "pet_not_available" | "order_already_complete" | "category_in_use" | "pet_has_open_orders" | "duplicate_name" | "duplicate_code" | "stocktake_closed" | "over_receipt" | "purchase_order_closed" | "on_hold" | "refund_exceeds_sale" | "shift_open" | "shift_closed" | "gone" | "precondition_failed" | "payload_too_large" | "unsupported_media_type" | "misdirected_request" | "validation_failed" | "unknown_category" | "unknown_pet" | "idempotency_key_reused" | "payment_mismatch" | "buyer_required" | "rate_limited" | "temporarily_banned" | "internal" | "unavailable";
  message: string;
  status: number;
  line?: number;
};
export type StoreProfile = {
  name: string;
  currency: string;
  timezone: string;
  taxIncluded: boolean;
  defaultTaxRate: number;
};
export type StoreProfilePatch = {
  name?: string;
  currency?: string;
  timezone?: string;
  taxIncluded?: boolean;
  defaultTaxRate?: number;
};
export type DailyReportDay = {
  date: string;
  ordersPlaced: number;
  ordersCompleted: number;
  ordersCancelled: number;
  unitsSold: number;
  revenue: number;
  sales: number;
  tax: number;
  refunds: number;
  cash: number;
  card: number;
  other: number;
};
export type InventoryItemPatch = {
  reorderPoint?: number | null;
};
export type NewStocktake = {
  note?: string | null;
};
export type StocktakeCount = {
  counted: number;
};
export type StocktakeLine = {
  petId: number;
  counted: number;
  countedAt: string;
  expected: number;
  variance: number;
};
export type Stocktake = {
  id: number;
  status: "open" | "applied";
  note: string | null;
  createdAt: string;
  appliedAt?: string;
  lines: Array<StocktakeLine>;
};
export type ImportError = {
  line: number;
  field: string;
  message: string;
};
export type ImportSummary = {
  created: number;
  updated: number;
  unchanged: number;
  errors: Array<ImportError>;
};
export type ImportFailure = {
  code: "validation_failed";
  message: string;
  status: 422;
  errors: Array<ImportError>;
};
export type NewSaleLine = {
  petId: number;
  quantity: number;
  discount?: number | null;
};
export type Payment = {
  method: "cash" | "card" | "other";
  amount: number;
};
export type Customer = {
  name?: string | null;
  phone?: string | null;
  email?: string | null;
};
export type NewSale = {
  lines: Array<NewSaleLine>;
  payments: Array<Payment>;
  customer?: Customer;
  note?: string | null;
  till?: string | null;
  soldAt?: string | null;
};
export type SaleLine = {
  petId: number;
  name: string;
  sku: string | null;
  barcode: string | null;
  quantity: number;
  unitPrice: number;
  discount: number;
  taxRate: number;
  tax: number;
  total: number;
  orderId: number;
  shortBy?: number;
};
export type Sale = {
  id: number;
  number: number;
  placedAt: string;
  soldAt: string;
  keyName: string | null;
  staffId: number | null;
  till: string | null;
  lines: Array<SaleLine>;
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  payments: Array<Payment>;
  change: number;
  customer?: Customer;
  note: string | null;
  refunded: number;
};
export type NewRefund = {
  lines: Array<{
    petId: number;
    quantity: number;
  }>;
  method: "cash" | "card" | "other";
  reason: string;
  restock?: boolean;
  till?: string | null;
};
export type Refund = {
  id: number;
  saleId: number;
  createdAt: string;
  lines: Array<{
    petId: number;
    quantity: number;
    amount: number;
    tax: number;
  }>;
  amount: number;
  method: "cash" | "card" | "other";
  reason: string;
  restock: boolean;
  till: string | null;
  keyName: string | null;
  staffId: number | null;
};
export type NewShift = {
  till: string;
  openingCash: number;
};
export type ShiftClose = {
  countedCash: number;
};
export type Shift = {
  id: number;
  till: string;
  status: "open" | "closed";
  openedAt: string;
  openedBy: string | null;
  openingCash: number;
  closedAt: string | null;
  closedBy: string | null;
  expectedCash: number;
  countedCash: number | null;
  difference: number | null;
  sales: {
    count: number;
    total: number;
    tax: number;
    byMethod: {
      cash: number;
      card: number;
      other: number;
    };
  };
  refunds: {
    count: number;
    amount: number;
  };
};
export type Supplier = {
  id: number;
  name: string;
  contact: string | null;
  phone: string | null;
  email: string | null;
  note: string | null;
};
export type NewSupplier = {
  name: string;
  contact?: string | null;
  phone?: string | null;
  email?: string | null;
  note?: string | null;
};
export type SupplierPatch = {
  name?: string;
  contact?: string | null;
  phone?: string | null;
  email?: string | null;
  note?: string | null;
};
export type NewPurchaseOrder = {
  supplierId: number;
  lines: Array<{
    petId: number;
    quantity: number;
    cost?: number | null;
  }>;
  note?: string | null;
};
export type PurchaseOrderLine = {
  petId: number;
  ordered: number;
  received: number;
  cost: number;
};
export type PurchaseOrder = {
  id: number;
  number: number;
  supplierId: number;
  status: "draft" | "sent" | "partial" | "received" | "cancelled";
  lines: Array<PurchaseOrderLine>;
  total: number;
  note: string | null;
  createdAt: string;
  sentAt: string | null;
  closedAt: string | null;
};
export type PurchaseOrderSuggestion = {
  supplierId: number;
};
export type Receipt = {
  lines: Array<{
    petId: number;
    quantity: number;
  }>;
};
export type Animal = {
  sex: "male" | "female" | "unknown";
  bornOn?: string | null;
  breed?: string | null;
  colour?: string | null;
  microchip?: string | null;
  source?: string | null;
  arrivedOn?: string | null;
};
export type Hold = {
  until: string;
  reason: string;
};
export type NewCareEntry = {
  kind: "fed" | "health_check" | "vaccination" | "treatment" | "weight" | "note";
  note?: string | null;
  product?: string | null;
  weightGrams?: number | null;
  dueOn?: string | null;
};
export type CareEntry = {
  id: number;
  petId: number;
  kind: "fed" | "health_check" | "vaccination" | "treatment" | "weight" | "note";
  note: string | null;
  product: string | null;
  weightGrams: number | null;
  dueOn: string | null;
  at: string;
  keyName: string | null;
  staffId: number | null;
};
export type CareDue = {
  petId: number;
  name: string;
  kind: "fed" | "health_check" | "vaccination" | "treatment" | "weight" | "note";
  dueOn: string;
  overdueDays: number;
  lastAt: string;
};
export type Buyer = {
  name: string | null;
  phone: string | null;
  email: string | null;
};
export type SoldAnimal = {
  petId: number;
  name: string;
  animal: Animal;
  soldAt: string;
  saleId: number;
  number: number;
  buyer: Buyer;
};
export type CancelledOrder = {
  id: number;
  petId: number;
  petName?: string;
  quantity: number;
  unitPrice?: number;
  total?: number;
  placedAt: string;
  cancelledAt: string;
};
export type StaffRole = "readonly" | "staff" | "admin";
export type StaffMember = {
  id: number;
  name: string;
  role: StaffRole;
  createdAt: string;
  disabledAt: string | null;
};
export type NewStaffMember = {
  name: string;
  role: StaffRole;
  pin: string;
};
export type StaffMemberPatch = {
  name?: string | null;
  role?: StaffRole | null;
  pin?: string | null;
  disabled?: boolean | null;
};
export type SignIn = {
  name: string;
  pin: string;
};
export type Session = {
  secret: string;
  expiresAt: string;
  staff: StaffMember;
};
export type NewPairing = {
  name: string;
  role: "readonly" | "pos" | "staff";
  plan: "free" | "pro" | "business";
};
export type Pairing = {
  code: string;
  expiresAt: string;
  url: string;
  onNetwork: boolean;
};
export type StoreCertificate = {
  https: boolean;
  fingerprint?: string;
  notAfter?: string;
};
export type PairRequest = {
  code: string;
};
