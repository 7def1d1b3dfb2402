; Inno Setup 6 script: installs the PyInstaller folder dist\lantern per user (no admin rights needed),
; with Start-menu and optional desktop shortcuts.  Built by build-windows.ps1:
;   iscc /DAppVersion=0.1.0 /DSourceDir=...\dist\lantern /O...\dist lantern.iss
#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
[Setup]
AppId={{6C7C4E51-2E0B-4F7B-9E1D-4C1A0B7E2A11}
AppName=Lantern
AppVersion={#AppVersion}
AppPublisher=Lantern contributors
DefaultDirName={localappdata}\Programs\Lantern
DefaultGroupName=Lantern
PrivilegesRequired=lowest
OutputBaseFilename=Lantern-Setup-{#AppVersion}
Compression=lzma2/max
SolidCompression=yes
LicenseFile={#SourceDir}\LICENSE
ArchitecturesInstallIn64BitMode=x64compatible
WizardStyle=modern

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: recursesubdirs ignoreversion

[Icons]
Name: "{group}\Lantern"; Filename: "{app}\lantern-desktop.exe"
Name: "{group}\Licences"; Filename: "{app}\THIRD-PARTY-NOTICES.md"
Name: "{userdesktop}\Lantern"; Filename: "{app}\lantern-desktop.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "Create a desktop shortcut"; Flags: unchecked

[Run]
Filename: "{app}\lantern-desktop.exe"; Description: "Start Lantern"; Flags: nowait postinstall skipifsilent
