package api

func NewClient() {}
