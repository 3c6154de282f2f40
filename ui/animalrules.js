//! The pure rules of the animal screens, as a clerk reads them: an animal's age from its
//! birth date, dates in the device's words, when care is due and when it is next due if it
//! keeps its rhythm. No imports and no DOM, so they are unit-tested in node.

/** Today as `YYYY-MM-DD` on this device's calendar (the most a date field may say). */
export function todayIso(now = new Date()) {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/**
 * An animal's age from its birth date, as a clerk says it: weeks under 16 weeks, months
 * under 2 years, then years. Empty without a birth date.
 * @param {string | null | undefined} bornOn
 * @param {Date} [now]
 */
export function ageText(bornOn, now = new Date()) {
  if (!bornOn) return '';
  const born = new Date(`${bornOn}T00:00:00`);
  const days = Math.floor((now.getTime() - born.getTime()) / 86_400_000);
  if (!Number.isFinite(days) || days < 0) return '';
  if (days < 7) return days === 1 ? '1 day' : `${days} days`;
  const weeks = Math.floor(days / 7);
  if (weeks < 16) return weeks === 1 ? '1 week' : `${weeks} weeks`;
  let months = (now.getFullYear() - born.getFullYear()) * 12 + now.getMonth() - born.getMonth();
  if (now.getDate() < born.getDate()) months -= 1;
  if (months < 24) return `${months} months`;
  return `${Math.floor(months / 12)} years`;
}

/** @param {string} iso  a `YYYY-MM-DD` date, shown in the device's words */
export function dayText(iso) {
  const d = new Date(`${iso}T00:00:00`);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/**
 * When care is next due if it keeps its rhythm: as many days after today as the due date was
 * after the last entry (at least one day).
 * @param {{ dueOn: string, lastAt: string }} due
 * @param {Date} [now]
 */
export function nextDue(due, now = new Date()) {
  const last = new Date(due.lastAt);
  const lastDay = new Date(last.getFullYear(), last.getMonth(), last.getDate());
  const dueDay = new Date(`${due.dueOn}T00:00:00`);
  const gap = Math.max(1, Math.round((dueDay.getTime() - lastDay.getTime()) / 86_400_000));
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate() + gap);
  return todayIso(next);
}

/** @param {{ dueOn: string, overdueDays: number }} due */
export function dueText(due) {
  const d = due.overdueDays;
  if (d > 0) return d === 1 ? 'Overdue 1 day' : `Overdue ${d} days`;
  if (d === 0) return 'Due today';
  return d === -1 ? 'Due tomorrow' : `Due ${dayText(due.dueOn)}`;
}

