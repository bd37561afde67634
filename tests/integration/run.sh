#!/bin/sh
echo "not written yet"; exit 1
