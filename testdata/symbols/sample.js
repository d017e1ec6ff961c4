// Every JavaScript construct the index keeps.
export class CommandRouter {
  #routes = [];
  constructor() {}
  route(name) { return this.#routes[name]; }
  static create() { return new CommandRouter(); }
  #hidden() {}
  get size() { return 0; }
}

const Inner = class Named {
  run() {}
};

export default function handler(req) {
  return req;
}

function* ids() {
  yield 1;
}

const arrow = (x) => x * 2;
let expr = function () {};
var legacy = function named() {};

CommandRouter.prototype.extra = function () {};
module.exports.helper = () => {};
