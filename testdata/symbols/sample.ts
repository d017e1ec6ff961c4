// Every TypeScript construct the index keeps.
export interface Shape<T> {
  area(): number;
  name: string;
}

export type ID = string | number;

export enum Color {
  Red,
  Green,
}

export abstract class Base<T> implements Shape<T> {
  abstract area(): number;
  name = "base";
  protected describe(): string {
    return this.name;
  }
}

export class Circle extends Base<number> {
  constructor(private r: number) {
    super();
  }
  area(): number {
    return Math.PI * this.r * this.r;
  }
}

namespace Geometry {
  export function distance(a: number, b: number): number {
    return Math.abs(a - b);
  }
}

declare function external(x: number): void;

export const makeCircle = (r: number): Circle => new Circle(r);

function generic<T>(x: T): T {
  return x;
}
