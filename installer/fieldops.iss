; Inno Setup script: the Windows installer of the same one-folder bundle that
; build.sh makes on Linux (built on Windows by build.ps1; installer/README.md).
;
; The version comes from one place, pyproject.toml, passed on the command line:
;   iscc /DVersion=X.Y.Z installer\fieldops.iss
; build.ps1 reads it with `python installer\bundle.py --version`. The bundle it
; packs is installer\dist\fieldops-<version>\ (PyInstaller, fieldops.spec).

#ifndef Version
  #error Give the version: iscc /DVersion=X.Y.Z installer\fieldops.iss (build.ps1 does)
#endif

[Setup]
; One AppId for every version: a newer installer upgrades the installed one in place.
AppId={{6A0C3B0E-2F4B-4C7E-9A51-3D1E7C5F0A14}
AppName=FieldOps
AppVersion={#Version}
AppVerName=FieldOps {#Version}
AppPublisher=City Animal Control
DefaultDirName={autopf}\FieldOps
DefaultGroupName=FieldOps
DisableProgramGroupPage=yes
PrivilegesRequired=admin
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=dist
OutputBaseFilename=fieldops-{#Version}-windows-x64-setup
SetupIconFile=..\resources\icons\fieldops.ico
UninstallDisplayIcon={app}\fieldops.exe
UninstallDisplayName=FieldOps {#Version}
Compression=lzma2
SolidCompression=yes
WizardStyle=modern

[Files]
; The whole bundle. An upgrade first removes the older version's program files
; ([InstallDelete]), so no module of an older version is left beside the new one.
Source: "dist\fieldops-{#Version}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
; fieldops.exe carries the app's icon (fieldops.spec); the shortcut shows it.
Name: "{autoprograms}\FieldOps"; Filename: "{app}\fieldops.exe"; IconFilename: "{app}\fieldops.exe"; Comment: "Animal control records"
Name: "{autodesktop}\FieldOps"; Filename: "{app}\fieldops.exe"; IconFilename: "{app}\fieldops.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "Create a &desktop shortcut"; GroupDescription: "Additional shortcuts:"; Flags: unchecked

[Run]
Filename: "{app}\fieldops.exe"; Description: "Start FieldOps"; Flags: nowait postinstall skipifsilent

; Uninstalling removes the program folder and the shortcuts. The databases (in
; each user's data folder, or where --db points) and their backups are kept:
; they are the pound's legal records.
