/*
Copyright 2019 The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package deepcopy generates DeepCopy, DeepCopyInto, and DeepCopyObject
// implementations for types.
//
// It's ported from k8s.io/code-generator's / k8s.io/gengo's deepcopy-gen,
// but it's scoped specifically to runtime.Object and skips support for
// deepcopying interfaces, which aren't handled in CRDs anyway.
package deepcopy
