//! Pets: search by every word of name and category, filter by category and status, sort, page;
//! add, edit, delete; the stock of each row with quick ±1, Adjust (with a reason), Set count
//! and History. Controls the signed-in role cannot use are not shown. A sale of a pet on the
//! page updates its row from the event itself, with no fetch.

import * as api from '../api.js';
import { h, field, uid, select, replace } from '../dom.js';
import { openDialog, confirmAction, formValues } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { categoryNames, inventoryFor } from '../lookups.js';
import { quickAdjust, openSetCount, openAdjust, openHistory, isLow, statusCell } from '../stock.js';
import { table, pager, actionsCell, stockFigure, pageHeader, sortHeader, srOnly, rowMenu } from '../widgets.js';
import { scanBox } from '../scan.js';
import { exportPets, openImport } from '../transfer.js';
import { formatPrice, parsePrice, priceInput, loadProfile, currentProfile } from '../money.js';
import { petStockFields, openPrintLabels } from '../stockroom.js';
import { holdBadge, oneAnimalSwitch, openAnimal } from '../animal.js';
import { BOUNDS } from '../facts.js';

/**
 * @typedef {import('../types.js').Pet} Pet
 * @typedef {import('../types.js').InventoryItem} InventoryItem
 * @typedef {import('../types.js').StoreEvent} StoreEvent
 */

export const title = 'Pets';
/** Event types (prefixes) that change what this page shows. */
export const watches = ['pet.', 'category.', 'inventory.'];

/** Filters survive a trip to another page; a scanned pet shown alone (`only`) does not. */
const state = { q: '', categoryId: '', status: '', sort: 'name', offset: 0, limit: 25, only: '' };
/**
 * The pets ticked for "Print labels", by id: kept across pages, filters, searches and trips
 * to other pages, so labels for pets found one search at a time print together.
 * @type {Map<number, Pet>}
 */
const picked = new Map();

const STATUS_OPTIONS = /** @type {Array<[string, string]>} */ ([
  ['', 'No status'], ['available', 'Available'], ['pending', 'Pending'], ['sold', 'Sold'],
]);

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  // A scan answers the moment it is made: coming back to Pets shows the list again.
  state.only = '';
  const canEdit = ctx.can('edit');
  const canStock = ctx.can('stock');
  /** @type {Map<number, string>} */
  let categories = new Map();
  /** The rows on screen, by pet id, so an event can redraw one in place. */
  /** @type {Map<number, { pet: Pet, item: InventoryItem | undefined, tr: HTMLElement }>} */
  const shown = new Map();

  const search = h('input', {
    id: 'pet-search', type: 'search', placeholder: 'e.g. beagle puppy', value: state.q,
    autocomplete: 'off', 'data-search': true, enterkeyhint: 'search',
  });
  let searchTimer = 0;
  /** Shows what the search box asks for. A search after a scan is a new question: it replaces the scanned pet. */
  const applySearch = () => {
    clearTimeout(searchTimer);
    state.q = /** @type {HTMLInputElement} */ (search).value.trim();
    state.only = '';
    state.offset = 0;
    ctx.refresh();
  };
  search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = window.setTimeout(applySearch, 250);
  });
  // Enter asks again at once, even for the words already in the box (they were hidden by a scan).
  search.addEventListener('keydown', (e) => {
    const ke = /** @type {KeyboardEvent} */ (e);
    if (ke.key === 'Enter' && !ke.isComposing) { e.preventDefault(); applySearch(); }
  });

  const catFilter = select({ id: 'pet-cat-filter' }, [['', 'All categories']], state.categoryId);
  catFilter.addEventListener('change', () => {
    state.categoryId = /** @type {HTMLSelectElement} */ (catFilter).value;
    state.only = '';
    state.offset = 0;
    ctx.refresh();
  });
  const statusFilter = select(
    { id: 'pet-status-filter' },
    [['', 'Any status'], ['available', 'Available'], ['pending', 'Pending'], ['sold', 'Sold']],
    state.status,
  );
  statusFilter.addEventListener('change', () => {
    state.status = /** @type {HTMLSelectElement} */ (statusFilter).value;
    state.only = '';
    state.offset = 0;
    ctx.refresh();
  });

  const results = h('div', { class: 'results', 'aria-live': 'off' });
  // A scanned code jumps to its pet (the list shows it alone), or offers to add one with it.
  const scan = scanBox({
    id: 'pet-scan',
    label: 'Scan a barcode',
    // A search still waiting to apply is applied now, so it cannot land after the scan and hide it.
    onFound: (pet) => { clearTimeout(searchTimer); state.q = /** @type {HTMLInputElement} */ (search).value.trim(); state.only = String(pet.id); state.offset = 0; ctx.refresh(); },
    onMissing: (code, kind) => {
      if (!canEdit) return notify(`No pet has the ${kind === 'barcode' ? 'barcode' : 'SKU'} ${code}.`, 'error');
      confirmAction({
        title: `No pet has ${code}`,
        message: `Add a pet with the ${kind === 'barcode' ? 'barcode' : 'SKU'} ${code}?`,
        confirmLabel: 'Add a pet with it',
        cancelLabel: 'Not now',
        offer: true,
        onConfirm: async () => { setTimeout(() => openPetForm(null, kind === 'barcode' ? { barcode: code } : { sku: code }), 0); },
      });
    },
  });
  // "Print labels" prints the ticked pets of every page, or, with none ticked, this page's.
  const labelsButton = h('button', { type: 'button', class: 'btn', id: 'pet-labels', onclick: () => openPrintLabels(picked.size ? [...picked.values()] : [...shown.values()].map((s) => s.pet)) });
  const clearPicked = h('button', { type: 'button', class: 'btn btn-quiet', id: 'pet-labels-clear', onclick: () => { picked.clear(); for (const s of shown.values()) pickBox(s.tr).checked = false; drawPicked(); } }, 'Clear selection');
  function drawPicked() {
    labelsButton.textContent = picked.size ? `Print labels (${picked.size} selected)` : 'Print labels';
    clearPicked.hidden = picked.size === 0;
  }
  drawPicked();
  /** @param {HTMLElement} tr */
  const pickBox = (tr) => /** @type {HTMLInputElement} */ (tr.querySelector('input[data-pick]'));
  const showAll = h('button', { type: 'button', class: 'btn btn-quiet', id: 'pet-show-all', onclick: () => { state.only = ''; ctx.refresh(); } }, 'Show all pets');
  const el = h(
    'section',
    { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Pets',
      h('button', { type: 'button', class: 'btn', id: 'pet-export', onclick: exportPets }, 'Export CSV'),
      canEdit ? h('button', { type: 'button', class: 'btn', id: 'pet-import', onclick: () => void openImport() }, 'Import CSV') : null,
      labelsButton, clearPicked,
      canEdit ? h('button', { type: 'button', class: 'btn btn-primary', onclick: () => openPetForm(null) }, '+ Add pet') : null),
    h('div', { class: 'toolbar', role: 'search', 'aria-label': 'Find pets' },
      scan.el,
      field('Search name or category', search),
      field('Category', catFilter),
      field('Status', statusFilter),
    ),
    results,
  );

  /** @param {Pet | null} pet  null: a new pet @param {{ barcode?: string, sku?: string }} [preset] */
  async function openPetForm(pet, preset = {}) {
    if (categories.size === 0) {
      // Clicked before the page's first load finished: fetch the categories now.
      try {
        categories = await categoryNames();
      } catch (err) {
        notifyError(err);
        return;
      }
    }
    if (categories.size === 0) {
      notify('Add a category first (Categories page): every pet belongs to one.', 'error');
      return;
    }
    const name = h('input', { id: uid('name'), name: 'name', type: 'text', required: true, autocomplete: 'off', value: pet?.name ?? '', autofocus: true, maxlength: String(BOUNDS.name.max) });
    const cat = select(
      { id: uid('cat'), name: 'categoryId', required: true },
      [...categories].map(([id, n]) => [String(id), n]),
      String(pet?.categoryId ?? [...categories.keys()][0]),
    );
    const status = select({ id: uid('status'), name: 'status' }, STATUS_OPTIONS, pet ? (pet.status ?? '') : 'available');
    const sku = h('input', { id: uid('sku'), name: 'sku', type: 'text', autocomplete: 'off', maxlength: String(BOUNDS.sku.max), pattern: '[A-Za-z0-9._\\-]+', value: pet?.sku ?? preset.sku ?? '' });
    const barcode = h('input', { id: uid('barcode'), name: 'barcode', type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: '14', value: pet?.barcode ?? preset.barcode ?? '' });
    const currency = currentProfile().currency;
    const price = h('input', { id: uid('price'), name: 'price', type: 'text', inputmode: 'decimal', autocomplete: 'off', value: priceInput(pet?.price), placeholder: formatPrice(0) });
    const stockroom = await petStockFields(pet);
    const stock = pet ? null : h('input', { id: uid('stock'), name: 'stock', type: 'number', inputmode: 'numeric', min: String(BOUNDS.stock.min), max: String(BOUNDS.stock.max), step: '1', value: '0' });
    // A tap on the box selects its 0, so typing 4 gives 4, not 04.
    stock?.addEventListener('focus', () => /** @type {HTMLInputElement} */ (stock).select());
    const oneAnimal = pet ? null : oneAnimalSwitch(/** @type {HTMLInputElement | null} */ (stock));
    // Delete lives in the Edit dialog, away from the row's stock buttons.
    const remove = pet
      ? h('button', { type: 'button', class: 'btn btn-danger-quiet dialog-aside', onclick: () => { handle.close(); deletePet(pet); } }, `Delete ${pet.name}…`)
      : null;
    const handle = openDialog({
      title: pet ? `Edit ${pet.name}` : 'Add a pet',
      context: { action: 'pet', name: pet?.name },
      body: [
        field('Name', name), field('Category', cat), field('Status', status),
        field(`Price (${currency})`, price, 'Leave empty for a pet with no price.'),
        field('SKU', sku, 'Letters, digits, . _ and -. Optional.'),
        field('Barcode', barcode, 'The 8, 12, 13 or 14 digits under the bars. Optional.'),
        ...stockroom.fields,
        stock ? field('In stock now', stock, 'How many are on the shelf. Leave 0 if none yet.') : null,
        oneAnimal?.el,
        remove,
      ],
      submitLabel: pet ? 'Save' : 'Add pet',
      onSubmit: async (form) => {
        const v = formValues(form);
        const cents = parsePrice(v.price ?? '');
        if (Number.isNaN(cents)) throw new Error(`The price "${v.price}" is not an amount in ${currency}.`);
        /** @type {Record<string, unknown>} */
        const body = { name: v.name, categoryId: Number(v.categoryId) };
        if (pet) Object.assign(body, { sku: v.sku || null, barcode: v.barcode || null, price: cents });
        else for (const [k, val] of /** @type {Array<[string, unknown]>} */ ([['sku', v.sku], ['barcode', v.barcode], ['price', cents]])) if (val !== '' && val !== null) body[k] = val;
        Object.assign(body, stockroom.read(v));
        if (oneAnimal?.on()) body.animal = oneAnimal.read();
        if (pet) {
          await api.patch(`/pets/${pet.id}`, { ...body, status: v.status || null });
          notify(`Saved ${v.name}.`, 'ok');
        } else {
          const created = await api.post('/pets', v.status ? { ...body, status: v.status } : body);
          const n = Number(v.stock || 0);
          if (created && n > 0) {
            await api.put(`/store/inventory/${created.id}`, { quantity: n, reason: 'First count' });
          }
          notify(`Added ${created?.name ?? v.name} with ${n} in stock.`, 'ok');
        }
      },
    });
  }

  /** @param {Pet} pet */
  function deletePet(pet) {
    confirmAction({
      title: `Delete ${pet.name}?`,
      message: `${pet.name} and its stock record will be removed. Its past orders will show it as deleted. This cannot be undone.`,
      confirmLabel: 'Delete',
      cancelLabel: 'Keep it',
      context: { action: 'pet', name: pet.name },
      onConfirm: async () => {
        await api.del(`/pets/${pet.id}`);
        notify(`Deleted ${pet.name}.`, 'ok');
      },
    });
  }

  /** @param {Pet} pet @param {InventoryItem | undefined} item */
  function row(pet, item) {
    const n = pet.name;
    const k = `pet-${pet.id}`;
    const qty = item?.quantity;
    if (picked.has(pet.id)) picked.set(pet.id, pet);
    const pick = h('input', { type: 'checkbox', 'data-pick': true, 'aria-label': `Select ${n} for labels`, checked: picked.has(pet.id), 'data-focus-key': `${k}-pick` });
    pick.addEventListener('change', () => {
      if (/** @type {HTMLInputElement} */ (pick).checked) picked.set(pet.id, pet);
      else picked.delete(pet.id);
      drawPicked();
    });
    return h('tr', { 'data-pet-id': String(pet.id) },
      h('td', { class: 'pick' }, pick),
      h('td', { class: 'muted id wide-only' }, `#${pet.id}`),
      h('th', { scope: 'row', class: 'name' }, n, pet.sku || pet.barcode ? h('span', { class: 'code muted' }, [pet.sku, pet.barcode].filter(Boolean).join(' · ')) : null, holdBadge(pet)),
      h('td', {}, categories.get(pet.categoryId) ?? `#${pet.categoryId}`),
      h('td', { 'data-cell': 'status' }, statusCell(pet, qty, canEdit)),
      h('td', { class: 'num price' }, formatPrice(pet.price)),
      h('td', { class: 'num', 'data-cell': 'stock' }, stockFigure(qty, isLow(item))),
      actionsCell(
        canStock
          ? h('div', { class: 'stepper', role: 'group', 'aria-label': `Stock of ${n}` },
            h('button', { type: 'button', class: 'btn btn-step', 'data-focus-key': `${k}-minus`, disabled: qty === 0, onclick: () => quickAdjust(pet, -1) }, '−1', srOnly(` from ${n}`)),
            h('button', { type: 'button', class: 'btn btn-step', 'data-focus-key': `${k}-plus`, onclick: () => quickAdjust(pet, 1) }, '+1', srOnly(` to ${n}`)),
          )
          : null,
        canStock ? h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-adj`, onclick: () => openAdjust(pet, shown.get(pet.id)?.item?.quantity ?? qty) }, 'Adjust', srOnly(` ${n}`)) : null,
        // The less used actions wait behind "More", so a row stays one line tall.
        ...(() => {
          const setCount = canStock ? h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-set`, onclick: () => openSetCount(pet, shown.get(pet.id)?.item?.quantity ?? qty) }, 'Set count', srOnly(` of ${n}`)) : null;
          const history = h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-hist`, onclick: () => openHistory(pet) }, 'History', srOnly(` of ${n}`));
          const edit = canEdit ? h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-edit`, onclick: () => openPetForm(pet) }, 'Edit', srOnly(` ${n}`)) : null;
          const animal = pet.animal || canEdit ? h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-animal`, onclick: () => openAnimal(pet, { canEdit }) }, pet.animal ? 'Animal & care' : 'Animal record', srOnly(` of ${n}`)) : null;
          return setCount || edit ? [rowMenu(n, [animal, setCount, history, edit])] : [history, animal];
        })(),
      ),
    );
  }

  /**
   * Show a changed inventory item in its row: only the status and stock cells change, so the
   * row's buttons stay where they are (and keep the keyboard) while a till sells.
   * @param {InventoryItem} item
   */
  function redrawRow(item) {
    const at = shown.get(item.petId);
    if (!at) return;
    at.item = { ...at.item, ...item };
    const qty = at.item.quantity;
    replace(/** @type {HTMLElement} */ (at.tr.querySelector('[data-cell="status"]')), statusCell(at.pet, qty, canEdit));
    replace(/** @type {HTMLElement} */ (at.tr.querySelector('[data-cell="stock"]')), stockFigure(qty, isLow(at.item)));
    const minus = /** @type {HTMLButtonElement | null} */ (at.tr.querySelector(`[data-focus-key="pet-${at.pet.id}-minus"]`));
    if (minus) minus.disabled = qty === 0;
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    focus: () => search.focus(),
    /** A stock change redraws its row here; only changes to pets and categories need a fetch. */
    affects(/** @type {StoreEvent} */ ev) {
      if (ev.type.startsWith('inventory.')) {
        if (ev.data && typeof ev.data.petId === 'number') redrawRow(ev.data);
        return false;
      }
      return true;
    },
    async load() {
      const [cats, page] = await Promise.all([
        categoryNames(),
        api.list('/pets', state.only
          ? { ids: state.only, limit: state.limit, offset: 0 }
          : { q: state.q, categoryId: state.categoryId, status: state.status, sort: state.sort, limit: state.limit, offset: state.offset }),
        loadProfile(),
      ]);
      categories = cats;
      syncCategoryFilter();
      if (page.items.length === 0 && state.offset > 0 && page.total > 0) {
        state.offset = Math.max(0, Math.floor((page.total - 1) / state.limit) * state.limit);
        ctx.refresh(); // runs again once this run ends
        return;
      }
      const pets = /** @type {Pet[]} */ (page.items);
      const stock = await inventoryFor(pets.map((p) => p.id));
      const onSort = (/** @type {string} */ s) => { state.sort = s; state.offset = 0; ctx.refresh(); };
      shown.clear();
      const rows = pets.map((p) => {
        const tr = row(p, stock.get(p.id));
        shown.set(p.id, { pet: p, item: stock.get(p.id), tr });
        return tr;
      });
      replace(results,
        state.only ? h('p', { class: 'scan-hit' }, 'Showing the scanned pet. ', showAll) : null,
        table('Pets', [
          h('th', { scope: 'col', class: 'pick' }, srOnly('For labels')),
          sortHeader('ID', 'id', state.sort, onSort, 'wide-only'),
          sortHeader('Name', 'name', state.sort, onSort),
          'Category', 'Status', { label: 'Price', class: 'num' }, { label: 'In stock', class: 'num' }, 'Actions',
        ], rows,
        state.q || state.categoryId || state.status ? 'No pets match these filters.' : canEdit ? 'No pets yet. Add the first one with “+ Add pet”.' : 'No pets yet.'),
        pager({ offset: state.offset, limit: state.limit, total: page.total, label: 'pets', onChange: (o) => { state.offset = o; ctx.refresh(); } }),
      );
    },
  };

  function syncCategoryFilter() {
    const sel = /** @type {HTMLSelectElement} */ (catFilter);
    const want = ['', ...[...categories.keys()].map(String)].join(',');
    const have = [...sel.options].map((o) => o.value).join(',');
    if (want === have) return;
    const current = sel.value;
    sel.replaceChildren(
      h('option', { value: '' }, 'All categories'),
      ...[...categories].map(([id, n]) => h('option', { value: String(id), selected: String(id) === current }, n)),
    );
  }

  return view;
}
