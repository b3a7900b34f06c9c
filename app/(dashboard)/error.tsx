"use client";

import { PageError } from "@/components/shared/page-error";

export default PageError;
