// Every TSX construct the index keeps.
import React from "react";

interface Props {
  title: string;
}

export function Header({ title }: Props) {
  return <h1>{title}</h1>;
}

export const Footer = (props: Props) => <footer>{props.title}</footer>;

export class Page extends React.Component<Props> {
  render() {
    return <div><Header title={this.props.title} /></div>;
  }
}

type Theme = "light" | "dark";
