// Values made once per (owner, key) and kept for as long as the owner object lives: derived keys
// per server secret, prepared statements per database handle.

export class PerOwner<O extends object, K, V> {
  private readonly byOwner = new WeakMap<O, Map<K, V>>();

  get(owner: O, key: K, make: () => V): V {
    let values = this.byOwner.get(owner);
    if (!values) this.byOwner.set(owner, (values = new Map()));
    let value = values.get(key);
    if (value === undefined) values.set(key, (value = make()));
    return value;
  }
}
