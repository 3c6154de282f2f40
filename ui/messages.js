//! Plain words for every error the server can answer. The server's `code` decides the
//! sentence and the page supplies what a clerk knows things by (the pet's name, not its id);
//! the server's own message (developer words: ids, field names, parser text) is only used to
//! read figures from and which field it names. Pure: no DOM, unit-tested in node.

/**
 * What the failed action was about, as the page knows it.
 * @typedef {object} ErrorContext
 * @property {'order' | 'adjust' | 'set' | 'pet' | 'category' | 'key' | 'load' | 'supplier'} [action]
 * @property {string} [name]     the record's name (a pet, a category, a key)
 * @property {number} [count]    a relevant figure (pets in a category)
 * @property {string} [change]   the change that was tried, in a clerk's words ("+1 on Guppy"),
 *   named when it is lost (refused by the rate limits), since nothing else on the screen says so
 */

/**
 * The parts of an error this module reads (an ApiError has them all).
 * @typedef {{ status: number, code: string, message: string, retryAfterMs?: number | null }} ErrorLike
 */

/** @param {number} n */
const num = (n) => n.toLocaleString('en-US');

/** "Not saved: +1 on Guppy. ", when the context names the change. @param {ErrorContext} ctx */
const notSaved = (ctx) => (ctx.change ? `Not saved: ${ctx.change}. ` : '');

/**
 * The field an error names: "quantity: must be …", "perMinute: invalid value …", or a serde
 * "unknown field `foo`" / "missing field `foo`".
 * @param {string} message
 * @returns {string | null}
 */
export function fieldOf(message) {
  const m = /^([a-zA-Z]+(?:\.[a-zA-Z]+)?):/.exec(message) ?? /field `([a-zA-Z]+)`/.exec(message);
  return m ? m[1] : null;
}

/** @param {number | null | undefined} ms */
function minutes(ms) {
  const m = Math.max(1, Math.ceil((ms ?? 0) / 60_000));
  return m === 1 ? '1 minute' : `${m} minutes`;
}

/**
 * One sentence for a field the server refused.
 * @param {string} field
 * @param {ErrorContext} ctx
 * @returns {string | null}
 */
function fieldSentence(field, ctx) {
  switch (field) {
    case 'quantity':
      return ctx.action === 'order' ? 'Enter a quantity from 1 to 10,000, in whole units.' : 'Enter a count from 0 to 1,000,000, in whole units.';
    case 'delta':
      return 'Enter how many to add (for example 3) or remove (for example −2): a whole number, not 0.';
    case 'name':
      return ctx.action === 'category' ? 'Give the category a name (up to 100 characters).'
        : ctx.action === 'key' ? 'Give the key a name, for example “Till 2” (up to 100 characters).'
          : 'Give the pet a name (up to 100 characters).';
    case 'description':
      return 'Keep the description to 1,000 characters or fewer.';
    case 'reason':
      return 'Keep the reason short (up to 1,000 characters).';
    case 'categoryId':
      return 'Choose a category from the list.';
    case 'petId':
      return 'Choose a pet from the list.';
    case 'status':
      return 'Choose a status from the list.';
    case 'perMinute':
      return 'Requests a minute must be a whole number of at least 1.';
    case 'perDay':
      return 'Requests a day must be a whole number of at least 1.';
    case 'role':
      return 'Choose a role from the list.';
    case 'plan':
      return 'Choose a plan from the list.';
    case 'reorderPoint':
      return 'Enter a reorder point from 0 to 1,000,000, or leave it empty.';
    case 'pin':
      return 'A PIN is 4 to 8 digits.';
    case 'animal.microchip':
      return 'A microchip number is 15 digits.';
    case 'animal.bornOn':
    case 'animal.arrivedOn':
      return 'The birth and arrival dates can’t be in the future, and it can’t arrive before it was born.';
    case 'animal.breed':
    case 'animal.colour':
      return 'Keep the breed and the colour to 100 characters each.';
    case 'animal.source':
      return 'Keep where it came from to 200 characters.';
    case 'hold.until':
      return 'Choose the last day of the hold.';
    case 'hold.reason':
      return 'Say why the pet is on hold, in up to 200 characters.';
    case 'weightGrams':
      return 'Enter the weight in grams, from 1 to 200,000.';
    default:
      return null;
  }
}

/**
 * The sentence to show for a failed call.
 * @param {unknown} err
 * @param {ErrorContext} [ctx]
 * @returns {string}
 */
export function explain(err, ctx = {}) {
  if (!err || typeof err !== 'object' || !('code' in err) || !('status' in err)) {
    return err instanceof Error ? err.message : String(err);
  }
  const e = /** @type {ErrorLike} */ (err);
  const raw = typeof e.message === 'string' ? e.message : '';
  const name = ctx.name;
  switch (e.code) {
    case 'network':
      return raw || 'The server cannot be reached. Check that it is running and that this device is on the shop network.';
    case 'unauthorized':
      return 'This sign-in is no longer valid. Sign in again.';
    case 'forbidden':
      return ctx.action === 'adjust' || ctx.action === 'set'
        ? 'Your sign-in can’t change stock. Ask a manager.'
        : 'Your sign-in can’t do this. Ask a manager.';
    case 'not_found':
      return `${name ?? 'That record'} no longer exists: it may have been deleted on another device.`;
    case 'insufficient_stock': {
      const m = /has (\d+) in stock; (\d+) requested/.exec(raw);
      const have = m ? Number(m[1]) : null;
      const want = m ? Number(m[2]) : null;
      const what = name ?? 'of this pet';
      if (have === null) return `There is not enough ${what} in stock.`;
      return ctx.action === 'order'
        ? `Only ${num(have)} ${what} in stock.`
        : `Only ${num(have)} ${what} in stock, so you can’t remove ${num(want ?? 0)}.`;
    }
    case 'pet_not_available':
      return `${name ?? 'This pet'} can’t be sold now: its status is not Available. Set its status to Available first (Edit).`;
    case 'order_already_complete':
      return 'This order is already complete; a completed order can’t be changed or cancelled.';
    case 'category_in_use':
      return ctx.count
        ? `${name ?? 'This category'} still has ${ctx.count === 1 ? '1 pet' : `${num(ctx.count)} pets`}. Move them to another category first.`
        : `${name ?? 'This category'} still has pets. Move them to another category first.`;
    case 'pet_has_open_orders':
      return `${name ?? 'This pet'} has open orders. Complete or cancel them first.`;
    case 'duplicate_name': {
      const kind = ctx.action === 'category' ? 'category' : ctx.action === 'key' ? 'key' : ctx.action === 'pet' ? 'pet' : ctx.action === 'supplier' ? 'supplier' : 'record';
      return `There is already a ${kind} called ${name ?? 'that'}.`;
    }
    case 'duplicate_code':
      return /microchip/i.test(raw) ? 'Another animal already has this microchip number.' : 'Another pet already has this SKU or barcode.';
    case 'on_hold': {
      // "pet 42 is on hold until the end of 2026-06-01: Quarantine after arrival"
      const m = /until the end of (\d{4}-\d{2}-\d{2}): (.*)$/s.exec(raw);
      return m
        ? `${name ?? 'This pet'} is on hold until the end of ${m[1]}: ${m[2]}. It can’t be ordered or sold until then, unless a manager clears the hold.`
        : `${name ?? 'This pet'} is on hold and can’t be ordered or sold now.`;
    }
    case 'precondition_failed':
      return 'Someone changed this on another device meanwhile. Close this and try again.';
    case 'idempotency_key_reused':
      return 'This change was already sent with other values. Try again.';
    case 'unknown_category':
      return 'That category no longer exists. Choose another one.';
    case 'unknown_pet':
      return 'That pet no longer exists. Choose another one.';
    case 'rate_limited':
      return `${notSaved(ctx)}This device is making too many requests for its plan. Wait a moment and try again; a manager can raise its plan on the Keys page.`;
    case 'temporarily_banned':
      return `${notSaved(ctx)}This device is blocked for ${minutes(e.retryAfterMs)} because it made too many requests. A manager can lift the ban on the Keys page.`;
    case 'payload_too_large':
      return 'That is too much text to save at once. Shorten it and try again.';
    case 'unavailable':
      return 'The store is busy. Try again in a moment.';
    case 'internal':
      return 'The store had a problem saving this. Try again; if it keeps happening, restart Petstore.';
    case 'conflict':
      if (/last (active )?admin/i.test(raw)) return 'This is the last admin key: keep it, or make another admin key first.';
      if (/named by pets or purchase orders/.test(raw)) return `${name ?? 'This supplier'} is still named by pets or purchase orders. Give those pets another supplier (Pets → Edit) first; a supplier with purchase orders stays on the list.`;
      return 'This clashes with a change made meanwhile. Try again.';
    case 'validation_failed':
    case 'bad_request': {
      if (/is one individual animal/.test(raw)) {
        return `${name ?? 'This pet'} is one individual animal: its stock can only be 0 or 1.`;
      }
      const field = fieldOf(raw);
      const sentence = field ? fieldSentence(field, ctx) : null;
      return sentence ?? 'Some of what was entered is not valid. Check the highlighted field and try again.';
    }
    default:
      return e.status >= 500 ? 'The store had a problem. Try again; if it keeps happening, restart Petstore.' : raw || 'That did not work. Try again.';
  }
}
